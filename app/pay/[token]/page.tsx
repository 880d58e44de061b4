import { notFound } from 'next/navigation';
import { loadCheckout } from '@/lib/checkout/load-checkout';
import { getDb } from '@/lib/db/client';
import { checkoutTranslations } from '@/components/checkout/checkout-locale';
import { ChannelCheckoutPage } from '@/components/checkout/checkout-pages';
import type { CheckoutSearchParams } from '@/components/checkout/checkout-shell';
import { CheckoutGone } from '@/components/checkout/checkout-unavailable';

export const dynamic = 'force-dynamic';

/** The payer's checkout at an order's payUrl: one view per channel, in one design, loaded here and passed down. */
export default async function PayPage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Promise<CheckoutSearchParams> }) {
  const { token } = await params;
  const query = await searchParams;
  const checkout = await loadCheckout(getDb(), token);
  if (checkout.kind === 'unknown') notFound();
  const { locale, t } = await checkoutTranslations(typeof query.lang === 'string' ? query.lang : undefined);
  const frame = { locale, t, merchant: checkout.merchant };
  if (checkout.kind === 'gone') return <CheckoutGone frame={frame} redirectUrl={checkout.redirectUrl} />;
  return <ChannelCheckoutPage frame={frame} token={token} checkout={checkout} searchParams={query} />;
}
