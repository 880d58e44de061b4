import { getTranslations } from 'next-intl/server';
import { AreaMessagesProvider } from '@/components/i18n/area-messages-provider';
import { PageTitle, Section } from '@/components/operator/ui';
import { AccountSessions } from '@/components/portal/account-sessions';
import { SecondFactorForm } from '@/components/portal/second-factor-form';
import { formError } from '@/components/portal/styles';
import { listLiveSessions } from '@/lib/accounts/account-sessions';
import { sessionDeviceOf } from '@/lib/accounts/session-device';
import { pendingSecondFactorReset } from '@/lib/accounts/reset-second-factor';
import { secondFactorState } from '@/lib/accounts/totp-factor';
import { stepUpAsk } from '@/lib/accounts/step-up';
import { listPasskeys } from '@/lib/accounts/passkey-enrolment';
import { PasskeysSection } from '@/components/back-office/passkeys-section';
import { getDb } from '@/lib/db/client';
import { requireOperator } from '../_session/require-operator';
import {
  addOperatorPasskeyAction,
  confirmOperatorSecondFactorAction,
  endOperatorSessionsAction,
  removeOperatorPasskeyAction,
  removeOperatorSecondFactorAction,
  startOperatorSecondFactorAction,
} from './actions';

export const dynamic = 'force-dynamic';

const PASSKEY_ACTIONS = { addPasskeyAction: addOperatorPasskeyAction, removePasskeyAction: removeOperatorPasskeyAction };

const SECOND_FACTOR_ACTIONS = {
  startSecondFactorAction: startOperatorSecondFactorAction,
  confirmSecondFactorAction: confirmOperatorSecondFactorAction,
  removeSecondFactorAction: removeOperatorSecondFactorAction,
};

/** The operator's own account: the authenticator app and passkeys of two-step sign-in, and the sessions signed in. */
export default async function OperatorAccountPage() {
  const operator = await requireOperator({ duringSecondFactorSetUp: true });
  const now = new Date();
  const [t, portal, passkeyWords, secondFactor, factorReset, sessions, stepUp, passkeys] = await Promise.all([
    getTranslations('console.account'),
    getTranslations('portal.account'),
    getTranslations('portal.passkeys'),
    secondFactorState(getDb(), operator.accountId),
    pendingSecondFactorReset(getDb(), operator.accountId),
    listLiveSessions(getDb(), operator.accountId, now),
    stepUpAsk(getDb(), operator, now),
    listPasskeys(getDb(), operator.accountId),
  ]);
  return (
    // The forms are the portal's account forms, in the portal's words.
    <AreaMessagesProvider areas={['common', 'console', 'portal']}>
      <PageTitle title={t('title')} intro={t.rich('intro', { email: operator.email, b: (chunks) => <strong data-testid="signed-in-email">{chunks}</strong> })} />
      {operator.mustSetUpSecondFactor ? (
        <p className={`${formError} font-semibold`} role="alert" data-testid="second-factor-required">
          {t('secondFactorRequired')}
        </p>
      ) : null}
      <Section title={portal('secondFactor.heading')} id="second-factor-heading">
        <SecondFactorForm
          enrolled={secondFactor.enrolled}
          recoveryCodesLeft={secondFactor.recoveryCodesLeft}
          resetByOperator={factorReset}
          actions={SECOND_FACTOR_ACTIONS}
          stepUp={stepUp}
        />
      </Section>
      <Section title={passkeyWords('heading')} id="passkeys-heading">
        <PasskeysSection passkeys={passkeys} recoveryCodesLeft={secondFactor.enrolled ? undefined : secondFactor.recoveryCodesLeft} stepUp={stepUp} actions={PASSKEY_ACTIONS} />
      </Section>
      <Section title={portal('sessions.heading')} id="sessions-heading">
        <div data-testid="account-sessions">
          <p className="mt-0 mb-4 text-sm text-gray-600">{portal('sessions.intro')}</p>
          <AccountSessions
            sessions={sessions.map(({ userAgent, ...session }) => ({ ...session, device: sessionDeviceOf(userAgent) }))}
            currentId={operator.sessionId}
            endSessionsAction={endOperatorSessionsAction}
          />
        </div>
      </Section>
    </AreaMessagesProvider>
  );
}
