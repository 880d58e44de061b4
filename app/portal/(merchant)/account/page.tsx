import {
  addPasskeyAction,
  changePasswordAction,
  confirmSecondFactorAction,
  endSessionsAction,
  removePasskeyAction,
  removeSecondFactorAction,
  saveCloseNoticesAction,
  saveTimeZoneAction,
  startSecondFactorAction,
} from './actions';
import { AccountSessions } from '@/components/portal/account-sessions';
import { listLiveSessions } from '@/lib/accounts/account-sessions';
import { sessionDeviceOf } from '@/lib/accounts/session-device';
import { SecondFactorForm } from '@/components/portal/second-factor-form';
import { pendingSecondFactorReset } from '@/lib/accounts/reset-second-factor';
import { secondFactorState } from '@/lib/accounts/totp-factor';
import { stepUpAsk } from '@/lib/accounts/step-up';
import { listPasskeys } from '@/lib/accounts/passkey-enrolment';
import { PasskeysSection } from '@/components/back-office/passkeys-section';
import { getTranslations } from 'next-intl/server';
import { PasswordForm } from '@/components/portal/password-form';
import { TimeZoneForm } from '@/components/portal/time-zone-form';
import { CloseNoticesForm } from '@/components/portal/close-notices-form';
import { closeNoticesEnabled } from '@/lib/merchants/close-notices';
import { signInFailuresOf } from '@/lib/accounts/sign-in-lockouts';
import { SignInAttempts } from '@/components/portal/sign-in-attempts';
import { getDb } from '@/lib/db/client';
import { timeZoneChoices } from '@/lib/merchants/merchant-time-zone';
import { requireMerchantSession } from '../../_session/require-merchant';
import { card, formError, note, pageTitle, sectionTitle } from '@/components/portal/styles';
import { roleMay } from '@/lib/accounts/team-roles';

export default async function AccountPage() {
  const { merchant, sessionId } = await requireMerchantSession({ duringSecondFactorSetUp: true });
  const now = new Date();
  // The merchant's own settings, for the roles that change them (and not before a required set-up).
  const mayChangeSettings = roleMay(merchant.teamRole, 'merchantSettings') && !merchant.mustSetUpSecondFactor;
  const [t, passkeyWords, closeNotices, signInFailures, secondFactor, factorReset, sessions, stepUp, passkeys] = await Promise.all([
    getTranslations('portal.account'),
    getTranslations('portal.passkeys'),
    closeNoticesEnabled(getDb(), merchant.merchantId),
    signInFailuresOf(getDb(), merchant.email, now),
    secondFactorState(getDb(), merchant.accountId),
    pendingSecondFactorReset(getDb(), merchant.accountId),
    listLiveSessions(getDb(), merchant.accountId, now),
    stepUpAsk(getDb(), merchant, now),
    listPasskeys(getDb(), merchant.accountId),
  ]);
  return (
    <>
      <h1 className={pageTitle}>{t('title')}</h1>
      {merchant.mustSetUpSecondFactor ? (
        <p className={`${formError} font-semibold`} role="alert" data-testid="second-factor-required">
          {t('secondFactor.requiredByTeam', { merchant: merchant.merchantName })}
        </p>
      ) : null}
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
          resetByOperator={factorReset}
          actions={{ startSecondFactorAction, confirmSecondFactorAction, removeSecondFactorAction }}
          stepUp={stepUp}
        />
      </section>
      <section className={card} aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading" className={sectionTitle}>{passkeyWords('heading')}</h2>
        <PasskeysSection passkeys={passkeys} recoveryCodesLeft={secondFactor.enrolled ? undefined : secondFactor.recoveryCodesLeft} stepUp={stepUp} actions={{ addPasskeyAction, removePasskeyAction }} />
      </section>
      <section className={card} aria-labelledby="sessions-heading" data-testid="account-sessions">
        <h2 id="sessions-heading" className={sectionTitle}>{t('sessions.heading')}</h2>
        <p className={`${note} mb-4`}>{t('sessions.intro')}</p>
        <AccountSessions
          sessions={sessions.map(({ userAgent, ...session }) => ({ ...session, device: sessionDeviceOf(userAgent) }))}
          currentId={sessionId}
          endSessionsAction={endSessionsAction}
        />
      </section>
      <SignInAttempts email={merchant.email} failures={signInFailures} />
      {mayChangeSettings ? (
        <>
          <section className={card} aria-labelledby="time-zone-heading">
            <h2 id="time-zone-heading" className={sectionTitle}>{t('timeZone.heading')}</h2>
            <p className={`${note} mb-4`}>{t('timeZone.intro')}</p>
            <TimeZoneForm current={merchant.timeZone} choices={timeZoneChoices(merchant.timeZone, new Date())} saveTimeZoneAction={saveTimeZoneAction} />
          </section>
          <section className={card} aria-labelledby="close-notices-heading">
            <h2 id="close-notices-heading" className={sectionTitle}>{t('closeNotices.heading')}</h2>
            <p className={`${note} mb-4`}>{t.rich('closeNotices.intro', { code: (chunks) => <code>{chunks}</code> })}</p>
            <CloseNoticesForm enabled={closeNotices} saveCloseNoticesAction={saveCloseNoticesAction} stepUp={stepUp === 'password' ? 'nothing' : stepUp} />
          </section>
        </>
      ) : null}
    </>
  );
}
