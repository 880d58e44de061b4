import { pickLocale } from './locales';

/** The sandbox payer pages' language: `?lang=` (zh / en), then the remembered choice, then the browser's. */
export function sandboxLanguage(input: { lang?: string; cookie?: string; acceptLanguage: string | null }): 'zh' | 'en' {
  return pickLocale({ explicit: input.lang, cookie: input.cookie, acceptLanguage: input.acceptLanguage }) === 'zh-CN' ? 'zh' : 'en';
}
