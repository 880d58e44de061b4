export const CHECKOUT_LANGUAGES = ['en', 'zh'] as const;
export type CheckoutLanguage = (typeof CHECKOUT_LANGUAGES)[number];

const en = {
  title: 'Pay with USDT',
  amountLabel: 'Amount to pay',
  exactNote: 'Pay exactly this amount, to the cent: a different amount cannot be matched to your order.',
  networkLabel: 'Network',
  networkWarning: 'Send USDT on the TRC20 (TRON) network only. Transfers on other networks (ERC20, BEP20…) are lost.',
  addressLabel: 'Receiving address (TRC20)',
  qrAlt: 'QR code of the receiving address',
  copy: 'Copy',
  copied: 'Copied',
  copyAmount: 'Copy amount',
  copyAddress: 'Copy address',
  timeLeft: 'Time left',
  waiting: 'Waiting for your payment… this page updates by itself once the transfer is confirmed.',
  paidTitle: 'Payment received',
  paidText: 'Your payment is confirmed.',
  returning: 'Returning to the merchant…',
  returnNow: 'Return to the merchant',
  expiredTitle: 'This payment has expired',
  expiredText: 'Do not send USDT to this address for this order. Go back to the merchant to start a new payment.',
  order: 'Order',
  sandboxWallet: 'Pay with the sandbox wallet (test only)',
  language: '中文',
};

const zh: typeof en = {
  title: 'USDT 支付',
  amountLabel: '支付金额',
  exactNote: '请精确支付此金额（精确到分），金额不符将无法匹配到您的订单。',
  networkLabel: '网络',
  networkWarning: '仅支持 TRC20（波场）网络的 USDT。通过其他网络（ERC20、BEP20 等）转账将会丢失。',
  addressLabel: '收款地址（TRC20）',
  qrAlt: '收款地址二维码',
  copy: '复制',
  copied: '已复制',
  copyAmount: '复制金额',
  copyAddress: '复制地址',
  timeLeft: '剩余时间',
  waiting: '等待付款中……转账确认后本页面将自动更新。',
  paidTitle: '已收到付款',
  paidText: '您的付款已确认。',
  returning: '正在返回商户……',
  returnNow: '返回商户',
  expiredTitle: '支付已过期',
  expiredText: '请勿再向此地址为本订单转账。请返回商户重新发起支付。',
  order: '订单号',
  sandboxWallet: '使用沙箱钱包支付（仅测试）',
  language: 'English',
};

export type CheckoutMessages = typeof en;

export function checkoutMessages(language: CheckoutLanguage): CheckoutMessages {
  return language === 'zh' ? zh : en;
}

/** ?lang= wins; else the browser's Accept-Language (zh-* → Chinese); else English. */
export function pickCheckoutLanguage(requested: string | undefined, acceptLanguage: string | null): CheckoutLanguage {
  if (requested === 'zh' || requested === 'en') return requested;
  const first = (acceptLanguage ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('zh') ? 'zh' : 'en';
}
