import { getDb } from '../lib/db/client';
import { createUsdtOrder } from '../lib/orders/create-usdt-order';
import { markOrderPaid } from '../lib/orders/mark-order-paid';

let sequence = 0;

/** A pending USDT order of the merchant, created through the domain (an address must be in the pool). */
export async function aPendingUsdtOrder(merchantId: number, notifyUrl: string, overrides: { amountMinor?: bigint; attach?: string } = {}) {
  sequence += 1;
  const { order } = await createUsdtOrder(getDb(), merchantId, {
    merchantOrderNo: `N-${process.pid}-${sequence}`,
    amountMinor: overrides.amountMinor ?? BigInt(100 + sequence),
    chainType: '1',
    notifyUrl,
    attach: overrides.attach ?? `attach-${sequence}`,
  });
  return order;
}

export async function payOrder(orderId: number, paidAt: Date, tradeNo = `tx-${orderId}`) {
  return getDb().transaction((tx) => markOrderPaid(tx as never, { orderId, via: 'chain', paidAt, tradeNo }));
}
