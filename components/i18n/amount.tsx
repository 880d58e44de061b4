import { useLocale } from 'next-intl';
import { readableAmount } from '@/lib/i18n/amounts';
import { isLocale } from '@/lib/i18n/locales';

/** An amount in the page's language (lib/i18n/amounts.ts), kept on one line. */
export function Amount({ value, currency }: { value: string; currency: string }) {
  const locale = useLocale();
  return (
    <span className="whitespace-nowrap" data-amount={value}>
      {readableAmount(value, currency, isLocale(locale) ? locale : 'en')}
    </span>
  );
}
