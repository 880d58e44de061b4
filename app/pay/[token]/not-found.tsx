import { checkoutTranslations } from '@/components/checkout/checkout-locale';
import { CheckoutNotFound } from '@/components/checkout/checkout-unavailable';

/** The branded 404 of an unknown payUrl token, in the payer's remembered or browser language. */
export default async function PayNotFound() {
  const { locale, t } = await checkoutTranslations(undefined);
  return <CheckoutNotFound locale={locale} t={t} />;
}
