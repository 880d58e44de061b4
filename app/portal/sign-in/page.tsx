import Link from 'next/link';
import { getLocale, getTranslations } from 'next-intl/server';
import { LanguageSwitch } from '@/components/i18n/language-switch';
import { SignInForm } from '@/components/portal/sign-in-form';
import { signInErrorCode } from '@/components/portal/sign-in-error-code';
import { isLocale } from '@/lib/i18n/locales';

/**
 * Only a path inside the portal or the operator console is followed after sign-in (no open redirect); the form
 * then sends each role to its own area (an operator to /operator, a merchant to /portal) whatever `next` says.
 */
function safeNext(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text && /^\/(portal|operator)(\/[\w\-./?=&%]*)?$/.test(text) && !text.startsWith('//') ? text : undefined;
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const [t, common, locale] = await Promise.all([getTranslations('portal.signIn'), getTranslations('common'), getLocale()]);
  const error = typeof params.error === 'string' ? t(`errors.${signInErrorCode(params.error)}`) : undefined;
  return (
    <main id="main" className="auth card">
      <LanguageSwitch locale={isLocale(locale) ? locale : 'en'} returnTo="/portal/sign-in" label={common('languageSwitch.label')} className="auth-language" />
      <h1>{t('title')}</h1>
      <SignInForm initialError={error} notice={params.signedUp === '1' ? t('signedUp') : params.joined === '1' ? t('joined') : undefined} next={safeNext(params.next)} />
      <p className="note">
        {t('noAccount')} <Link href="/portal/sign-up">{t('signUp')}</Link>
      </p>
    </main>
  );
}
