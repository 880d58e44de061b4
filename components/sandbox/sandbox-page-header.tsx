import type { Locale } from '@/lib/i18n/locales';
import { otherLanguageHref, type SandboxT } from './sandbox-locale';

/** The sandbox payer pages' top bar: the sandbox badge (never a real upstream) and the link to the other language. */
export function SandboxPageHeader({ locale, t, query }: { locale: Locale; t: SandboxT; query: Record<string, string | undefined> }) {
  return (
    <header className="merchant-bar">
      <p className="merchant-name">{t('badge')}</p>
      <a className="language" href={otherLanguageHref(locale, query)} hrefLang={locale === 'zh-CN' ? 'en' : 'zh'} lang={locale === 'zh-CN' ? 'en' : 'zh'}>
        {t('languageLink')}
      </a>
    </header>
  );
}
