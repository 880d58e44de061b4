import { NextResponse, type NextRequest } from 'next/server';
import { isLocale, LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE_SECONDS, safeReturnPath } from '@/lib/i18n/locales';

/** The language switch: a plain form post, so it works before (or without) any script; remembered for a year. */
export async function POST(request: NextRequest) {
  const form = await request.formData().catch(() => undefined);
  const locale = form?.get('locale');
  if (!isLocale(locale)) {
    return NextResponse.json({ error: 'locale must be one of zh-CN, en' }, { status: 400 });
  }
  const response = new NextResponse(null, { status: 303, headers: { location: safeReturnPath(form?.get('returnTo')) } });
  response.cookies.set(LOCALE_COOKIE, locale, {
    path: '/',
    maxAge: LOCALE_COOKIE_MAX_AGE_SECONDS,
    sameSite: 'lax',
    httpOnly: true,
    secure: request.nextUrl.protocol === 'https:',
  });
  return response;
}
