import { cookies, headers } from 'next/headers';
import { getRequestConfig } from 'next-intl/server';
import { signedInMerchant } from '@/app/portal/_session/require-merchant';
import { LOCALE_COOKIE, pickLocale } from '@/lib/i18n/locales';
import { PORTAL_REQUEST_HEADER } from '@/lib/i18n/portal-request';
import { displayTimeZone } from '@/lib/i18n/time-zone';
import { loadMessages } from '@/lib/i18n/messages';

// next-intl without locale segments in the URL: the language is the remembered choice, else the browser's.
// A page that takes an explicit `?lang=` passes it to `setRequestLocale`-free helpers itself (see lib/i18n/locales).
export default getRequestConfig(async ({ requestLocale }) => {
  const [cookieStore, headerList, requested] = await Promise.all([cookies(), headers(), requestLocale]);
  const locale = pickLocale({
    explicit: requested,
    cookie: cookieStore.get(LOCALE_COOKIE)?.value,
    acceptLanguage: headerList.get('accept-language'),
  });
  // Portal pages read times in the signed-in merchant's own zone; the console, the checkout and the sandbox in the service's.
  const merchantTimeZone = headerList.get(PORTAL_REQUEST_HEADER) ? (await signedInMerchant()).merchant?.timeZone : undefined;
  return { locale, timeZone: merchantTimeZone ?? displayTimeZone(), messages: await loadMessages(locale) };
});
