import Link from 'next/link';
import { getLocale, getTranslations } from 'next-intl/server';
import { LanguageSwitch } from '@/components/i18n/language-switch';
import { isLocale } from '@/lib/i18n/locales';
import { SignUpForm } from '@/components/portal/sign-up-form';
import { card, link, note, pageTitle } from '@/components/portal/styles';
import { signUpAction } from './actions';

export default async function SignUpPage() {
  const [t, common, locale] = await Promise.all([getTranslations('portal.signUp'), getTranslations('common'), getLocale()]);
  return (
    <main id="main" className={`${card} mx-auto my-6 max-w-md sm:my-12`}>
      <LanguageSwitch locale={isLocale(locale) ? locale : 'en'} returnTo="/portal/sign-up" label={common('languageSwitch.label')} className="auth-language" />
      <h1 className={pageTitle}>{t('title')}</h1>
      <p className={`${note} mb-4`}>{t('intro')}</p>
      <SignUpForm signUpAction={signUpAction} />
      <p className={`${note} mt-4`}>
        {t('already')}{' '}
        <Link className={link} href="/portal/sign-in">
          {t('signIn')}
        </Link>
      </p>
    </main>
  );
}
