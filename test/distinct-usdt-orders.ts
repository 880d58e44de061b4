/**
 * Fields of USDT submits for fault tests, each with its own merchantOrderNo and amount (1.01, 1.02, …), so that no
 * order waits for a free (address, amount) slot while the database is what the test breaks.
 */
export function distinctUsdtOrders(appId: () => string, prefix: string): () => Record<string, string> {
  let counter = 0;
  return () => {
    counter += 1;
    return {
      appId: appId(),
      merchantOrderNo: `${prefix}-${counter}-${Date.now()}`,
      chainType: '1',
      pay_usdt: (1 + counter / 100).toFixed(2),
      productName: 'VIP',
      notifyUrl: 'https://merchant.example/notify',
    };
  };
}
