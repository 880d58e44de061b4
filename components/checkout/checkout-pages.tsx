import type { ReactNode } from 'react';
import type { ChannelCheckoutView, ChannelName, CheckoutViewOf } from '@/lib/channels';
import { AlipayCheckoutPage } from './alipay-checkout-page';
import type { AsJson, CheckoutPageProps, CheckoutSearchParams } from './checkout-shell';
import { UsdtCheckoutPage } from './usdt-checkout-page';
import { wechatH5Redirect, WechatCheckoutPage } from './wechat-checkout-page';
import { YhtCheckoutPage } from './yht-checkout-page';

interface CheckoutPage<View> {
  render: (props: CheckoutPageProps<View>) => ReactNode;
  /** Where the payer is sent instead of seeing the page (a redirect leaves no page in the history), if anywhere. */
  redirect?: (view: AsJson<View>, query: CheckoutSearchParams) => string | undefined;
}

/**
 * Each channel's checkout page at an order's payUrl, by channel name: the one place the pages are chosen. A page
 * reads the query parameters its upstream returns the payer with (WeChat's h5 return, Alipay's trade_no) itself.
 */
const CHECKOUT_PAGES: { readonly [Name in ChannelName]: CheckoutPage<CheckoutViewOf<Name>> } = {
  USDT: { render: UsdtCheckoutPage },
  ALIPAY: { render: AlipayCheckoutPage },
  WECHAT: { render: WechatCheckoutPage, redirect: wechatH5Redirect },
  YHT: { render: YhtCheckoutPage },
};

// The map pairs each name with the page of that channel's view (TypeScript cannot follow the pairing).
const pageOf = (checkout: AsJson<ChannelCheckoutView>) => CHECKOUT_PAGES[checkout.channel] as CheckoutPage<typeof checkout.view>;

/** Where the view's channel sends the payer straight on instead of showing its page, if anywhere. */
export function checkoutRedirect(checkout: AsJson<ChannelCheckoutView>, query: CheckoutSearchParams): string | undefined {
  return pageOf(checkout).redirect?.(checkout.view, query);
}

/** The checkout page of the view's channel. */
export function ChannelCheckoutPage({ checkout, ...props }: Omit<CheckoutPageProps<unknown>, 'view'> & { checkout: AsJson<ChannelCheckoutView> }) {
  const Page = pageOf(checkout).render;
  return <Page {...props} view={checkout.view} />;
}
