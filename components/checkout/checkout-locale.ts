import { cookies, headers } from 'next/headers';
import { getTranslations } from 'next-intl/server';
import { LOCALE_COOKIE, pickLocale, type Locale } from '@/lib/i18n/locales';

/** Translates a checkout message key (with ICU values) in the payer's language. */
export type CheckoutT = (key: string, values?: Record<string, string | number>) => string;

/**
 * The payer's language: `?lang=` in the payUrl (old links say `zh`/`en`), then the remembered choice, then the
 * browser's. Translated on the server: the checkout ships no message catalogue to the browser.
 */
export async function checkoutTranslations(lang: string | undefined): Promise<{ locale: Locale; t: CheckoutT }> {
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  const locale = pickLocale({ explicit: lang, cookie: cookieStore.get(LOCALE_COOKIE)?.value, acceptLanguage: headerList.get('accept-language') });
  const t = await getTranslations({ locale, namespace: 'checkout' });
  return { locale, t: t as unknown as CheckoutT };
}
