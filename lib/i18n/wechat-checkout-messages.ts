import { CHECKOUT_CARD_TEXTS } from './checkout-card-messages';
import type { CheckoutLanguage } from './checkout-messages';

const en = {
  ...CHECKOUT_CARD_TEXTS.en,
  title: 'Pay with WeChat Pay',
  scanHint: 'Open WeChat, tap + then Scan, and scan this code to pay.',
  qrAlt: (amount: string) => `WeChat Pay QR code for ¥${amount}`,
  h5Returned: 'Back from WeChat Pay. If you paid, this page confirms it in a moment.',
  continueToPay: (amount: string) => `Continue to pay ¥${amount} in WeChat`,
  sandboxPay: 'Scan with the sandbox WeChat (test only)',
  waiting: 'Waiting for your payment… this page updates by itself once it is confirmed.',
  expiredText: 'This order can no longer be paid. Go back to the merchant to start a new payment.',
};

const zh: typeof en = {
  ...CHECKOUT_CARD_TEXTS.zh,
  title: '微信支付',
  scanHint: '请打开微信，点击“+”→“扫一扫”，扫描二维码完成支付。',
  qrAlt: (amount: string) => `微信支付二维码，金额 ¥${amount}`,
  h5Returned: '已从微信支付返回。如已付款，本页面将很快确认。',
  continueToPay: (amount: string) => `前往微信支付 ¥${amount}`,
  sandboxPay: '使用沙箱微信扫码（仅测试）',
  waiting: '等待付款中……付款确认后本页面将自动更新。',
  expiredText: '本订单已无法支付。请返回商户重新发起支付。',
};

export type WechatCheckoutMessages = typeof en;

export function wechatCheckoutMessages(language: CheckoutLanguage): WechatCheckoutMessages {
  return language === 'zh' ? zh : en;
}
