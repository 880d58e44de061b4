import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { findCheckoutChannel } from '@/lib/orders/checkout-order';
import { UsdtCheckoutPage } from '@/components/checkout/usdt-checkout-page';
import { YhtCheckoutPage } from '@/components/checkout/yht-checkout-page';

export const dynamic = 'force-dynamic';

/** The payer's checkout at an order's payUrl: one view per channel. */
export default async function PayPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ lang?: string }>;
}) {
  const { token } = await params;
  const { lang } = await searchParams;
  const channel = await findCheckoutChannel(getDb(), token);
  switch (channel) {
    case 'USDT':
      return <UsdtCheckoutPage token={token} lang={lang} />;
    case 'YHT':
      return <YhtCheckoutPage token={token} lang={lang} />;
    default:
      notFound();
  }
}
