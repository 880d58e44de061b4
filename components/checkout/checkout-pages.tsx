import type { ReactNode } from 'react';
import type { ChannelCheckoutView, ChannelName, CheckoutViewOf } from '@/lib/channels';
import { AlipayCheckoutPage } from './alipay-checkout-page';
import type { CheckoutPageProps } from './checkout-shell';
import { UsdtCheckoutPage } from './usdt-checkout-page';
import { WechatCheckoutPage } from './wechat-checkout-page';
import { YhtCheckoutPage } from './yht-checkout-page';

type CheckoutPage<View> = (props: CheckoutPageProps<View>) => ReactNode | Promise<ReactNode>;

/**
 * Each channel's checkout page at an order's payUrl, by channel name: the one place the pages are chosen. A page
 * reads the query parameters its upstream returns the payer with (WeChat's h5 return, Alipay's trade_no) itself.
 */
const CHECKOUT_PAGES: { readonly [Name in ChannelName]: CheckoutPage<CheckoutViewOf<Name>> } = {
  USDT: UsdtCheckoutPage,
  ALIPAY: AlipayCheckoutPage,
  WECHAT: WechatCheckoutPage,
  YHT: YhtCheckoutPage,
};

/** The checkout page of the view's channel. */
export function ChannelCheckoutPage({ checkout, ...props }: Omit<CheckoutPageProps<unknown>, 'view'> & { checkout: ChannelCheckoutView }) {
  // The map pairs each name with the page of that channel's view (TypeScript cannot follow the pairing).
  const Page = CHECKOUT_PAGES[checkout.channel] as CheckoutPage<typeof checkout.view>;
  return <Page {...props} view={checkout.view} />;
}
