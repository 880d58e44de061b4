import { notFound, redirect } from 'next/navigation';
import { loadCheckout } from '@/lib/checkout/load-checkout';
import { getDb } from '@/lib/db/client';
import { AlipayCheckoutPage } from '@/components/checkout/alipay-checkout-page';
import { checkoutTranslations } from '@/components/checkout/checkout-locale';
import { CheckoutGone } from '@/components/checkout/checkout-unavailable';
import { UsdtCheckoutPage } from '@/components/checkout/usdt-checkout-page';
import { WechatCheckoutPage } from '@/components/checkout/wechat-checkout-page';
import { YhtCheckoutPage } from '@/components/checkout/yht-checkout-page';

export const dynamic = 'force-dynamic';

/** The payer's checkout at an order's payUrl: one view per channel, in one design, loaded here and passed down. */
export default async function PayPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ lang?: string; wxreturn?: string; trade_no?: string }>;
}) {
  const { token } = await params;
  const { lang, wxreturn, trade_no: upstreamTradeNo } = await searchParams;
  const checkout = await loadCheckout(getDb(), token);
  if (checkout.kind === 'unknown') notFound();
  // WeChat h5 is paid on this phone: while pending, straight on to WeChat (a redirect leaves no page in the history).
  if (checkout.kind === 'live' && checkout.channel === 'WECHAT' && checkout.view.h5Url && wxreturn !== '1') redirect(checkout.view.h5Url);
  const { locale, t } = await checkoutTranslations(lang);
  const frame = { locale, t, merchant: checkout.merchant };
  if (checkout.kind === 'gone') return <CheckoutGone frame={frame} redirectUrl={checkout.redirectUrl} />;
  switch (checkout.channel) {
    case 'USDT':
      return <UsdtCheckoutPage frame={frame} token={token} checkout={checkout.view} />;
    case 'YHT':
      return <YhtCheckoutPage frame={frame} token={token} checkout={checkout.view} />;
    case 'WECHAT':
      return <WechatCheckoutPage frame={frame} token={token} checkout={checkout.view} returnedFromWechat={wxreturn === '1'} />;
    case 'ALIPAY':
      // Alipay sends the payer back to return_url with its trade_no appended: wait for the payment, do not go again.
      return <AlipayCheckoutPage frame={frame} token={token} checkout={checkout.view} returned={upstreamTradeNo !== undefined} />;
  }
}
