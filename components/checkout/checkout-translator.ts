import { createTranslator } from 'use-intl/core';
import type { Locale } from '@/lib/i18n/locales';
import type { Messages } from '@/lib/i18n/messages';
import type { CheckoutT } from './checkout-locale';

/** Translates with the `checkout` catalogue of the payer's language (already loaded: it renders synchronously). */
export function checkoutTranslator(locale: Locale, checkoutMessages: Messages): CheckoutT {
  const t = createTranslator({ locale, messages: { checkout: checkoutMessages }, namespace: 'checkout' });
  return t as unknown as CheckoutT;
}
