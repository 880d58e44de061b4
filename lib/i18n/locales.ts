/** The languages every page is written in; the first is for Chinese browsers, the second for everyone else. */
export const LOCALES = ['zh-CN', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

/** Where a payer's or a merchant's choice of language is remembered (next-intl's own cookie name). */
export const LOCALE_COOKIE = 'NEXT_LOCALE';
export const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Times are shown in this zone unless the merchant chose another: the merchants this serves are in China. */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

/** The names a language switch shows, each in its own language. */
export const LOCALE_NAMES: Record<Locale, string> = { 'zh-CN': '中文', en: 'English' };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * The page's language: an explicit choice (a `?lang=` the merchant put in a link, then the remembered cookie) wins;
 * otherwise the browser's most preferred language that we have, where any Chinese variant reads zh-CN.
 */
export function pickLocale(input: { explicit?: string | null; cookie?: string | null; acceptLanguage?: string | null }): Locale {
  for (const choice of [input.explicit, input.cookie]) {
    const locale = normaliseLocale(choice);
    if (locale) return locale;
  }
  for (const tag of preferredLanguages(input.acceptLanguage ?? '')) {
    const locale = normaliseLocale(tag);
    if (locale) return locale;
  }
  return 'en';
}

/** `zh`, `zh-cn`, `zh-Hans-CN`, `zh-TW` → zh-CN (the only Chinese we write); `en-GB` → en; anything else → undefined. */
export function normaliseLocale(tag: string | null | undefined): Locale | undefined {
  const primary = tag?.trim().toLowerCase().split(/[-_]/)[0];
  if (primary === 'zh') return 'zh-CN';
  if (primary === 'en') return 'en';
  return undefined;
}

function preferredLanguages(header: string): string[] {
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const quality = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
      return { tag: tag.trim(), weight: quality === undefined ? 1 : Number(quality), index };
    })
    .filter(({ tag, weight }) => tag !== '' && tag !== '*' && weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map(({ tag }) => tag);
}

/** The Set-Cookie value that remembers a language choice for a year (the /locale switch and the checkout's `?lang=`). */
export function localeCookieHeader(locale: Locale, secure: boolean): string {
  return `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${LOCALE_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax; HttpOnly${secure ? '; Secure' : ''}`;
}

/** Any control character (C0, DEL, C1) or whitespace, Unicode's included: a browser drops or rereads them in a URL. */
const CONTROL_OR_SPACE = /[\p{Cc}\p{Z}\s\u200B-\u200D\u2060\uFEFF]/u;
/** Only to resolve a path against: a host that cannot exist, so a path that escapes it shows as another origin. */
const OWN_ORIGIN = 'http://return-path.invalid';

/**
 * A path of this service to return to after switching language, else `/`. It must be a path (one leading `/`, no
 * backslash), hold no control character or whitespace (a browser drops a tab or newline, making `/\t/evil` read
 * `//evil`; a newline would also end the Location header), and still be a path of our own origin once resolved as a
 * browser resolves it (`/.//evil` resolves to `//evil`). The answer is the resolved path, query and fragment.
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\') || CONTROL_OR_SPACE.test(value)) return '/';
  let resolved: URL;
  try {
    resolved = new URL(value, OWN_ORIGIN);
  } catch {
    return '/';
  }
  if (resolved.origin !== OWN_ORIGIN || resolved.pathname.startsWith('//')) return '/';
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}
