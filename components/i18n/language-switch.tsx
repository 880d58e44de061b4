import { LOCALE_NAMES, LOCALES, type Locale } from '@/lib/i18n/locales';

/**
 * Switches the page to the other language and back to `returnTo`. A form post, not a script: it works before the
 * page's JavaScript has loaded, and the choice is remembered for every later page.
 */
export function LanguageSwitch({ locale, returnTo, label, className }: { locale: Locale; returnTo: string; label: string; className?: string }) {
  const other = LOCALES.find((candidate) => candidate !== locale) ?? locale;
  return (
    <form method="post" action="/locale" className={className}>
      <input type="hidden" name="locale" value={other} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <button type="submit" lang={other} aria-label={`${label}: ${LOCALE_NAMES[other]}`}>
        {LOCALE_NAMES[other]}
      </button>
    </form>
  );
}
