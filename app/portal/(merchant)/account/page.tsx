import { changePasswordAction, confirmSecondFactorAction, removeSecondFactorAction, saveCloseNoticesAction, saveTimeZoneAction, startSecondFactorAction } from './actions';
import { SecondFactorForm } from '@/components/portal/second-factor-form';
import { secondFactorState } from '@/lib/accounts/totp-factor';
import { getTranslations } from 'next-intl/server';
import { PasswordForm } from '@/components/portal/password-form';
import { TimeZoneForm } from '@/components/portal/time-zone-form';
import { CloseNoticesForm } from '@/components/portal/close-notices-form';
import { closeNoticesEnabled } from '@/lib/merchants/close-notices';
import { signInFailuresOf } from '@/lib/accounts/sign-in-lockouts';
import { SignInAttempts } from '@/components/portal/sign-in-attempts';
import { getDb } from '@/lib/db/client';
import { timeZoneChoices } from '@/lib/merchants/merchant-time-zone';
import { requireMerchant } from '../../_session/require-merchant';
import { card, note, pageTitle, sectionTitle } from '@/components/portal/styles';

export default async function AccountPage() {
  const merchant = await requireMerchant();
  const [t, closeNotices, signInFailures, secondFactor] = await Promise.all([
    getTranslations('portal.account'),
    closeNoticesEnabled(getDb(), merchant.merchantId),
    signInFailuresOf(getDb(), merchant.email, new Date()),
    secondFactorState(getDb(), merchant.accountId),
  ]);
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
      <section className={card} aria-labelledby="second-factor-heading">
        <h2 id="second-factor-heading" className={sectionTitle}>{t('secondFactor.heading')}</h2>
        <SecondFactorForm
          enrolled={secondFactor.enrolled}
          recoveryCodesLeft={secondFactor.recoveryCodesLeft}
          actions={{ startSecondFactorAction, confirmSecondFactorAction, removeSecondFactorAction }}
        />
      </section>
      <SignInAttempts email={merchant.email} failures={signInFailures} />
      <section className={card} aria-labelledby="time-zone-heading">
        <h2 id="time-zone-heading" className={sectionTitle}>{t('timeZone.heading')}</h2>
        <p className={`${note} mb-4`}>{t('timeZone.intro')}</p>
        <TimeZoneForm current={merchant.timeZone} choices={timeZoneChoices(merchant.timeZone, new Date())} saveTimeZoneAction={saveTimeZoneAction} />
      </section>
      <section className={card} aria-labelledby="close-notices-heading">
        <h2 id="close-notices-heading" className={sectionTitle}>{t('closeNotices.heading')}</h2>
        <p className={`${note} mb-4`}>{t.rich('closeNotices.intro', { code: (chunks) => <code>{chunks}</code> })}</p>
        <CloseNoticesForm enabled={closeNotices} saveCloseNoticesAction={saveCloseNoticesAction} />
      </section>
    </>
  );
}
