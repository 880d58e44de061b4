const en = {
  banner: 'SANDBOX: simulated WeChat Pay, no real money moves.',
  title: 'WeChat Pay',
  scanned: 'You scanned a WeChat Pay code',
  h5: 'WeChat Pay on this phone',
  amount: 'Amount',
  merchant: 'Merchant',
  status: 'Status',
  states: { NOTPAY: 'Waiting for payment', SUCCESS: 'Paid', CLOSED: 'Closed' },
  pay: (amount: string) => `Pay ¥${amount}`,
  paid: 'Payment done. You can go back to the merchant.',
  order: 'Order',
  expires: 'Expires',
  notifications: 'Notifications sent',
  language: '中文',
  refusals: {
    expired: 'This payment request has expired. Please start the payment again. (支付请求已失效，请重新发起支付)',
    network: 'Your network environment did not pass the security check. Please try again later. (网络环境未能通过安全验证，请稍后再试)',
  },
};

const zh: typeof en = {
  banner: '沙箱：模拟微信支付，不会产生真实资金往来。',
  title: '微信支付',
  scanned: '您扫描了一个微信支付二维码',
  h5: '在本机使用微信支付',
  amount: '金额',
  merchant: '商户号',
  status: '状态',
  states: { NOTPAY: '待支付', SUCCESS: '已支付', CLOSED: '已关闭' },
  pay: (amount: string) => `支付 ¥${amount}`,
  paid: '支付完成，您可以返回商户。',
  order: '订单号',
  expires: '过期时间',
  notifications: '已发送通知',
  language: 'English',
  refusals: {
    expired: '支付请求已失效，请重新发起支付',
    network: '网络环境未能通过安全验证，请稍后再试',
  },
};

export type PayerMessages = typeof en;

export function payerMessages(language: 'en' | 'zh'): PayerMessages {
  return language === 'zh' ? zh : en;
}
