import type { CheckoutLanguage } from '@/lib/i18n/checkout-messages';

/** The link to the same checkout in the other language; `keep` carries query parameters the page needs to stay in its state. */
export function LanguageLink({ language, label, keep = {} }: { language: CheckoutLanguage; label: string; keep?: Record<string, string> }) {
  const otherLanguage = language === 'zh' ? 'en' : 'zh';
  return (
    <a className="language" href={`?${new URLSearchParams({ lang: otherLanguage, ...keep })}`} hrefLang={otherLanguage}>
      {label}
    </a>
  );
}
