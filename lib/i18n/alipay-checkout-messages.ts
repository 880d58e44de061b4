import { CHECKOUT_CARD_TEXTS } from './checkout-card-messages';
import type { CheckoutLanguage } from './checkout-messages';

const en = {
  ...CHECKOUT_CARD_TEXTS.en,
  title: 'Pay with Alipay',
  methodLabel: 'Payment method',
  methods: { web: 'Alipay (website)', wap: 'Alipay (mobile)' } as Record<string, string>,
  redirecting: 'Taking you to Alipay…',
  payButton: (amount: string) => `Pay ¥${amount} with Alipay`,
  notMoving: 'If nothing happens, press the button.',
  returned: 'Confirming your payment with Alipay… this page updates by itself.',
  payAgain: 'Not paid yet? Open Alipay again',
  unavailable: 'Alipay payment is not available for this order right now. Please go back to the merchant.',
  expiredText: 'Do not pay for this order any more. Go back to the merchant to start a new payment.',
};

const zh: typeof en = {
  ...CHECKOUT_CARD_TEXTS.zh,
  title: '支付宝支付',
  methodLabel: '支付方式',
  methods: { web: '支付宝（电脑网站）', wap: '支付宝（手机网站）' },
  redirecting: '正在前往支付宝……',
  payButton: (amount: string) => `使用支付宝支付 ¥${amount}`,
  notMoving: '如页面未跳转，请点击按钮。',
  returned: '正在向支付宝确认付款……本页面将自动更新。',
  payAgain: '尚未付款？重新打开支付宝',
  unavailable: '本订单暂时无法使用支付宝支付，请返回商户。',
  expiredText: '请勿再为本订单付款。请返回商户重新发起支付。',
};

export type AlipayCheckoutMessages = typeof en;

export function alipayCheckoutMessages(language: CheckoutLanguage): AlipayCheckoutMessages {
  return language === 'zh' ? zh : en;
}
