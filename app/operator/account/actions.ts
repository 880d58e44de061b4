'use server';

import { headers } from 'next/headers';
import { qrSvgDataUrl } from '@/components/checkout/qr-svg';
import { endSessionsFromAccountPage } from '@/lib/accounts/account-sessions';
import { clientAddressFrom } from '@/lib/accounts/client-address';
import { addPasskey, removePasskey } from '@/lib/accounts/passkey-enrolment';
import { removeTotpFactor } from '@/lib/accounts/remove-totp-factor';
import { confirmTotpEnrolment, startTotpEnrolment } from '@/lib/accounts/totp-factor';
import { getDb } from '@/lib/db/client';
import { operatorActor } from '@/lib/operator/operator-context';
import { asId, asText, operatorAction, type OperatorActionResult } from '../_session/operator-action';

/** The account page's actions run for an operator who must still set up two-step sign-in (requireOperator). */
const DURING_SET_UP = { duringSecondFactorSetUp: true };

/** A new authenticator secret for the operator's own account, as the QR code an app scans and as text to type. */
export async function startOperatorSecondFactorAction(): Promise<OperatorActionResult<{ secret: string; qrCode: string }>> {
  return operatorAction(async (operator) => {
    const { secret, uri } = await startTotpEnrolment(getDb(), { accountId: operator.accountId, now: new Date() });
    return { secret, qrCode: qrSvgDataUrl(uri) };
  }, DURING_SET_UP);
}

/** The app's first code: the factor is in force from now on, and its recovery codes are shown this once. */
export async function confirmOperatorSecondFactorAction(input: { code?: unknown }): Promise<OperatorActionResult<{ recoveryCodes: string[] }>> {
  return operatorAction((operator) => confirmTotpEnrolment(getDb(), { accountId: operator.accountId, code: asText(input?.code), now: new Date() }), { field: 'code', ...DURING_SET_UP });
}

/** Removes the operator's authenticator after the step-up (lib/accounts/step-up.ts); the other sessions end. */
export async function removeOperatorSecondFactorAction(input: { password?: unknown }): Promise<OperatorActionResult<{ removed: true }>> {
  return operatorAction(
    async (operator) => {
      await removeTotpFactor(getDb(), { accountId: operator.accountId, sessionId: operator.sessionId, answer: asText(input?.password), now: new Date() });
      return { removed: true as const };
    },
    { field: 'password', ...DURING_SET_UP },
  );
}

/** Ends one of the operator's sessions (this one too: the page then signs out), or every one but this. */
export async function endOperatorSessionsAction(input: { sessionId: string } | { allButThis: true }): Promise<OperatorActionResult<{ ended: number; thisOne: boolean }>> {
  return operatorAction(async (operator) =>
    endSessionsFromAccountPage(getDb(), {
      accountId: operator.accountId,
      currentSessionId: operator.sessionId,
      choice: input,
      by: { actor: operatorActor(operator), clientAddress: clientAddressFrom((await headers()).get('x-forwarded-for')) },
      now: new Date(),
    }),
    DURING_SET_UP,
  );
}

/** Adds the passkey the browser made (lib/accounts/passkey-enrolment.ts) after the step-up; a set-up of two-step sign-in. */
export async function addOperatorPasskeyAction(input: { challengeId?: unknown; response?: unknown; name?: unknown; password?: unknown }): Promise<OperatorActionResult<{ recoveryCodes?: string[] }>> {
  return operatorAction(
    async (operator) => {
      const added = await addPasskey(getDb(), {
        accountId: operator.accountId,
        sessionId: operator.sessionId,
        answer: asText(input?.password),
        challengeId: asText(input?.challengeId),
        response: input?.response,
        name: input?.name,
        now: new Date(),
      });
      return { recoveryCodes: added.recoveryCodes };
    },
    { field: 'passkey', ...DURING_SET_UP },
  );
}

/** Removes one of the operator's passkeys after the step-up; the other sessions end. */
export async function removeOperatorPasskeyAction(input: { passkeyId?: unknown; password?: unknown }): Promise<OperatorActionResult<{ endedSessions: number }>> {
  return operatorAction(
    async (operator) =>
      removePasskey(getDb(), {
        accountId: operator.accountId,
        sessionId: operator.sessionId,
        answer: asText(input?.password),
        passkeyId: asId(input?.passkeyId),
        actor: operatorActor(operator),
        clientAddress: clientAddressFrom((await headers()).get('x-forwarded-for')),
        now: new Date(),
      }),
    { field: 'password', ...DURING_SET_UP },
  );
}
