import { getLocale } from 'next-intl/server';
import { readableAmount } from '@/lib/i18n/amounts';
import { isLocale } from '@/lib/i18n/locales';

/** How the page's language writes an amount inside a sentence (a translation's argument); `<Amount>` shows one alone. */
export async function amountWriter(): Promise<(value: string, currency: string) => string> {
  const locale = await getLocale();
  const reader = isLocale(locale) ? locale : 'en';
  return (value, currency) => readableAmount(value, currency, reader);
}
