'use server';

import { assertRoleMay } from '@/lib/accounts/team-roles';
import { headers } from 'next/headers';
import { getTranslations } from 'next-intl/server';
import { z } from 'zod';
import { endSessionsFromAccountPage } from '@/lib/accounts/account-sessions';
import { changePassword } from '@/lib/accounts/change-password';
import { clientAddressFrom } from '@/lib/accounts/client-address';
import { newPasswordSchema } from '@/lib/accounts/passwords';
import { qrSvgDataUrl } from '@/components/checkout/qr-svg';
import { addPasskey, removePasskey } from '@/lib/accounts/passkey-enrolment';
import { removeTotpFactor } from '@/lib/accounts/remove-totp-factor';
import { confirmStepUp } from '@/lib/accounts/step-up';
import { confirmTotpEnrolment, startTotpEnrolment } from '@/lib/accounts/totp-factor';
import { getDb } from '@/lib/db/client';
import { setCloseNotices } from '@/lib/merchants/close-notices';
import { setMerchantTimeZone } from '@/lib/merchants/merchant-time-zone';
import { portalActor } from '@/lib/portal/merchant-context';
import { fieldErrorsOf, refusal, type ActionResult } from '../../_session/action-result';
import { requireMerchant, requireMerchantSession } from '../../_session/require-merchant';

/** What a member whose team requires two-step sign-in may still do before setting it up: their own account. */
const DURING_SET_UP = { duringSecondFactorSetUp: true };

const changePasswordSchema = z.object({ password: z.string().min(1, 'Required'), newPassword: newPasswordSchema });

/** Changes the password; every session of the account (this one too) ends, so the form signs in again. */
export async function changePasswordAction(input: { password: string; newPassword: string }): Promise<ActionResult<{ email: string }>> {
  const { merchant } = await requireMerchantSession(DURING_SET_UP);
  const parsed = changePasswordSchema.safeParse(input);
  if (!parsed.success) {
    const [t, fields] = await Promise.all([getTranslations('portal.account'), getTranslations('portal.account.fieldErrors')]);
    return { ok: false, message: t('checkFields'), fieldErrors: fieldErrorsOf(parsed.error.issues, fields) };
  }
  try {
    await changePassword(getDb(), { accountId: merchant.accountId, currentPassword: parsed.data.password, newPassword: parsed.data.newPassword, now: new Date() });
    return { ok: true, data: { email: merchant.email } };
  } catch (error) {
    return refusal(error);
  }
}

/** Sets the zone the back office shows times in; the form reads the page again to show them in it. */
export async function saveTimeZoneAction(input: { timeZone: string }): Promise<ActionResult<{ timeZone: string }>> {
  const merchant = await requireMerchant();
  try {
    assertRoleMay(merchant, 'merchantSettings');
    const timeZone = await setMerchantTimeZone(getDb(), {
      merchantId: merchant.merchantId,
      timeZone: typeof input?.timeZone === 'string' ? input.timeZone : '',
      actor: portalActor(merchant),
      now: new Date(),
    });
    return { ok: true, data: { timeZone } };
  } catch (error) {
    return refusal(error);
  }
}

/** Opts in or out of close and expiry notices (off by default), after the step-up of an account with an app. */
export async function saveCloseNoticesAction(input: { enabled: boolean; password?: string }): Promise<ActionResult<{ enabled: boolean }>> {
  const merchant = await requireMerchant();
  try {
    assertRoleMay(merchant, 'merchantSettings');
    const now = new Date();
    await confirmStepUp(getDb(), { accountId: merchant.accountId, sessionId: merchant.sessionId, answer: typeof input?.password === 'string' ? input.password : '', now, withoutApp: 'nothing' });
    const enabled = await setCloseNotices(getDb(), { merchantId: merchant.merchantId, enabled: input?.enabled === true, actor: portalActor(merchant), now });
    return { ok: true, data: { enabled } };
  } catch (error) {
    return refusal(error);
  }
}

/** A new authenticator secret for this account, as the QR code an app scans and as text to type. */
export async function startSecondFactorAction(): Promise<ActionResult<{ secret: string; qrCode: string }>> {
  const { merchant } = await requireMerchantSession(DURING_SET_UP);
  try {
    const { secret, uri } = await startTotpEnrolment(getDb(), { accountId: merchant.accountId, now: new Date() });
    return { ok: true, data: { secret, qrCode: qrSvgDataUrl(uri) } };
  } catch (error) {
    return refusal(error);
  }
}

/** The app's first code: the factor is in force from now on, and its recovery codes are shown this once. */
export async function confirmSecondFactorAction(input: { code: string }): Promise<ActionResult<{ recoveryCodes: string[] }>> {
  const { merchant } = await requireMerchantSession(DURING_SET_UP);
  try {
    return { ok: true, data: await confirmTotpEnrolment(getDb(), { accountId: merchant.accountId, code: typeof input?.code === 'string' ? input.code : '', now: new Date() }) };
  } catch (error) {
    return refusal(error);
  }
}

/** Removes the authenticator after the step-up (lib/accounts/step-up.ts); the account's other sessions end. */
export async function removeSecondFactorAction(input: { password: string }): Promise<ActionResult<{ removed: true }>> {
  const { merchant } = await requireMerchantSession(DURING_SET_UP);
  try {
    await removeTotpFactor(getDb(), { accountId: merchant.accountId, sessionId: merchant.sessionId, answer: typeof input?.password === 'string' ? input.password : '', now: new Date() });
    return { ok: true, data: { removed: true } };
  } catch (error) {
    return refusal(error);
  }
}

/** Adds the passkey the browser made (lib/accounts/passkey-enrolment.ts) after the step-up; a set-up of two-step sign-in. */
export async function addPasskeyAction(input: { challengeId: string; response: unknown; name: string; password: string }): Promise<ActionResult<{ recoveryCodes?: string[] }>> {
  const { merchant } = await requireMerchantSession(DURING_SET_UP);
  try {
    const added = await addPasskey(getDb(), {
      accountId: merchant.accountId,
      sessionId: merchant.sessionId,
      answer: typeof input?.password === 'string' ? input.password : '',
      challengeId: typeof input?.challengeId === 'string' ? input.challengeId : '',
      response: input?.response,
      name: input?.name,
      now: new Date(),
    });
    return { ok: true, data: { recoveryCodes: added.recoveryCodes } };
  } catch (error) {
    return refusal(error);
  }
}

/** Removes one of the account's passkeys after the step-up; the account's other sessions end. */
export async function removePasskeyAction(input: { passkeyId: number; password: string }): Promise<ActionResult<{ endedSessions: number }>> {
  const { merchant, sessionId } = await requireMerchantSession(DURING_SET_UP);
  try {
    const ended = await removePasskey(getDb(), {
      accountId: merchant.accountId,
      sessionId,
      answer: typeof input?.password === 'string' ? input.password : '',
      passkeyId: input?.passkeyId,
      actor: portalActor(merchant),
      clientAddress: clientAddressFrom((await headers()).get('x-forwarded-for')),
      now: new Date(),
    });
    return { ok: true, data: ended };
  } catch (error) {
    return refusal(error);
  }
}

/** Ends one session of the account (the one in use too: the form then signs this browser out), or every one but it. */
export async function endSessionsAction(input: { sessionId: string } | { allButThis: true }): Promise<ActionResult<{ ended: number; thisOne: boolean }>> {
  const { merchant, sessionId } = await requireMerchantSession(DURING_SET_UP);
  try {
    const by = { actor: portalActor(merchant), clientAddress: clientAddressFrom((await headers()).get('x-forwarded-for')) };
    return { ok: true, data: await endSessionsFromAccountPage(getDb(), { accountId: merchant.accountId, currentSessionId: sessionId, choice: input, by, now: new Date() }) };
  } catch (error) {
    return refusal(error);
  }
}
