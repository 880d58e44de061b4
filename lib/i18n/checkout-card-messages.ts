/** The texts the ALIPAY, WECHAT and YHT checkouts share: the amount label, time left, the paid and expired cards, the order line and the language link. */
const en = {
  amountLabel: 'Amount to pay',
  timeLeft: 'Time left',
  paidTitle: 'Payment received',
  paidText: 'Your payment is confirmed.',
  returning: 'Returning to the merchant…',
  returnNow: 'Return to the merchant',
  expiredTitle: 'This payment has expired',
  order: 'Order',
  language: '中文',
};

const zh: typeof en = {
  amountLabel: '支付金额',
  timeLeft: '剩余时间',
  paidTitle: '已收到付款',
  paidText: '您的付款已确认。',
  returning: '正在返回商户……',
  returnNow: '返回商户',
  expiredTitle: '支付已过期',
  order: '订单号',
  language: 'English',
};

export const CHECKOUT_CARD_TEXTS = { en, zh };
