import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { findCheckoutChannel } from '@/lib/orders/checkout-order';
import { AlipayCheckoutPage } from '@/components/checkout/alipay-checkout-page';
import { UsdtCheckoutPage } from '@/components/checkout/usdt-checkout-page';
import { WechatCheckoutPage } from '@/components/checkout/wechat-checkout-page';
import { YhtCheckoutPage } from '@/components/checkout/yht-checkout-page';

export const dynamic = 'force-dynamic';

/** The payer's checkout at an order's payUrl: one view per channel. */
export default async function PayPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ lang?: string; wxreturn?: string; trade_no?: string }>;
}) {
  const { token } = await params;
  const { lang, wxreturn, trade_no: upstreamTradeNo } = await searchParams;
  const channel = await findCheckoutChannel(getDb(), token);
  switch (channel) {
    case 'USDT':
      return <UsdtCheckoutPage token={token} lang={lang} />;
    case 'YHT':
      return <YhtCheckoutPage token={token} lang={lang} />;
    case 'WECHAT':
      return <WechatCheckoutPage token={token} lang={lang} returnedFromWechat={wxreturn === '1'} />;
    case 'ALIPAY':
      // Alipay sends the payer back to return_url with its trade_no appended: wait for the payment, do not go again.
      return <AlipayCheckoutPage token={token} lang={lang} returned={upstreamTradeNo !== undefined} />;
    default:
      notFound();
  }
}
