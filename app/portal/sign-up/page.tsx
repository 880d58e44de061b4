import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { SignUpForm } from '@/components/portal/sign-up-form';
import { card, link, note, pageTitle } from '@/components/portal/styles';
import { signUpAction } from './actions';

export default async function SignUpPage() {
  const t = await getTranslations('portal.signUp');
  return (
    <main id="main" className={`${card} mx-auto my-6 max-w-md sm:my-12`}>
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
