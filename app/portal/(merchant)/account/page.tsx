import { changePasswordAction } from './actions';
import { getTranslations } from 'next-intl/server';
import { PasswordForm } from '@/components/portal/password-form';
import { requireMerchant } from '../../_session/require-merchant';
import { card, note, pageTitle, sectionTitle } from '@/components/portal/styles';

export default async function AccountPage() {
  const merchant = await requireMerchant();
  const t = await getTranslations('portal.account');
  return (
    <>
      <h1 className={pageTitle}>{t('title')}</h1>
      <section className={card} aria-labelledby="password-heading">
        <h2 id="password-heading" className={sectionTitle}>{t('changePassword')}</h2>
        <p className={`${note} mb-4`}>
          {t.rich('signedInAs', { email: merchant.email, b: (chunks) => <strong>{chunks}</strong> })}
        </p>
        <PasswordForm changePasswordAction={changePasswordAction} />
      </section>
    </>
  );
}
