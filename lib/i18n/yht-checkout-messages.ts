import { CHECKOUT_CARD_TEXTS } from './checkout-card-messages';
import type { CheckoutLanguage } from './checkout-messages';

/** How each YHT method is paid: scanned with a wallet app first, or continued at the aggregator's cashier first. */
export const YHT_SCAN_FIRST: Readonly<Record<string, boolean>> = {
  wxH5: false,
  wxPub: true,
  wxLite: true,
  aliPay: true,
  unionPay: true,
  bankCard: false,
  bankFast: false,
};

const en = {
  ...CHECKOUT_CARD_TEXTS.en,
  title: (method: string) => `Pay with ${method}`,
  methodLabel: 'Payment method',
  methods: {
    wxH5: 'WeChat Pay',
    wxPub: 'WeChat Pay (official account)',
    wxLite: 'WeChat Pay (mini program)',
    aliPay: 'Alipay',
    unionPay: 'UnionPay QuickPass',
    bankCard: 'Online banking',
    bankFast: 'Bank card quick pay',
  } as Record<string, string>,
  hints: {
    wxH5: 'Continue to the cashier on this phone; it opens WeChat to pay.',
    wxPub: 'Scan the QR code with WeChat, or open the cashier inside WeChat.',
    wxLite: 'Scan the QR code with WeChat to pay in the mini program.',
    aliPay: 'Scan the QR code with Alipay, or continue to the cashier.',
    unionPay: 'Scan the QR code with a UnionPay QuickPass or bank app.',
    bankCard: "Continue to the cashier to pay through your bank's online banking.",
    bankFast: 'Continue to the cashier to pay with a bank card.',
  } as Record<string, string>,
  qrAlt: 'QR code to pay',
  continueToPay: (amount: string) => `Continue to pay ¥${amount}`,
  waiting: 'Waiting for your payment… this page updates by itself once it is confirmed.',
  expiredText: 'Do not pay for this order any more. Go back to the merchant to start a new payment.',
};

const zh: typeof en = {
  ...CHECKOUT_CARD_TEXTS.zh,
  title: () => '订单支付',
  methodLabel: '支付方式',
  methods: {
    wxH5: '微信支付',
    wxPub: '微信支付（公众号）',
    wxLite: '微信支付（小程序）',
    aliPay: '支付宝',
    unionPay: '银联云闪付',
    bankCard: '网银支付',
    bankFast: '银行卡快捷支付',
  },
  hints: {
    wxH5: '请在本机继续前往收银台，将跳转微信完成支付。',
    wxPub: '请使用微信扫描二维码，或在微信内打开收银台。',
    wxLite: '请使用微信扫描二维码，在小程序中完成支付。',
    aliPay: '请使用支付宝扫描二维码，或前往收银台支付。',
    unionPay: '请使用云闪付或银行 App 扫描二维码。',
    bankCard: '请前往收银台，通过网上银行完成支付。',
    bankFast: '请前往收银台，使用银行卡完成支付。',
  },
  qrAlt: '支付二维码',
  continueToPay: (amount: string) => `前往支付 ¥${amount}`,
  waiting: '等待付款中……付款确认后本页面将自动更新。',
  expiredText: '请勿再为本订单付款。请返回商户重新发起支付。',
};

export type YhtCheckoutMessages = typeof en;

export function yhtCheckoutMessages(language: CheckoutLanguage): YhtCheckoutMessages {
  return language === 'zh' ? zh : en;
}
