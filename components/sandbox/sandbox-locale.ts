import { cookies, headers } from 'next/headers';
import { getTranslations } from 'next-intl/server';
import { LOCALE_COOKIE, pickLocale, type Locale } from '@/lib/i18n/locales';

export type SandboxT = ((key: string, values?: Record<string, string | number>) => string) & { has(key: string): boolean };

/** A sandbox payer page's language, as the checkout picks it: `?lang=`, the remembered choice, then the browser's. */
export async function sandboxTranslations(lang: string | undefined): Promise<{ locale: Locale; t: SandboxT }> {
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  const locale = pickLocale({ explicit: lang, cookie: cookieStore.get(LOCALE_COOKIE)?.value, acceptLanguage: headerList.get('accept-language') });
  const t = await getTranslations({ locale, namespace: 'sandbox' });
  return { locale, t: t as unknown as SandboxT };
}

/** The link to the same page in the other language, keeping its other query parameters. */
export function otherLanguageHref(locale: Locale, query: Record<string, string | undefined>): string {
  const keep = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'lang'));
  keep.set('lang', locale === 'zh-CN' ? 'en' : 'zh');
  return `?${keep}`;
}
