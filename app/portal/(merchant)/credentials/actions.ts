'use server';

import { confirmStepUp } from '@/lib/accounts/step-up';
import { assertRoleMay } from '@/lib/accounts/team-roles';
import { revalidatePath } from 'next/cache';
import { credentialChannelNamed } from '@/lib/channels';
import { deleteCredential, setCredentialEnabled, submitCredential } from '@/lib/credentials/credentials';
import { getDb } from '@/lib/db/client';
import { portalActor } from '@/lib/portal/merchant-context';
import { refusal, type ActionResult } from '../../_session/action-result';
import { requireMerchant } from '../../_session/require-merchant';

const PAGE = '/portal/credentials';

/** Every value from the browser is taken as text; the domain validates it. */
const asText = (value: unknown) => (typeof value === 'string' ? value : '');

const credentialRefusal = refusal;

/**
 * Submits a credential of the channel `input.channel` names (one of the registry's channels with merchant
 * credentials); that channel's rules (lib/channels/<name>/credentials.ts) validate every other field, and an unknown
 * channel is refused by name. An account with an authenticator app answers the step-up first (lib/accounts/step-up.ts).
 */
export async function submitCredentialAction(input: Record<string, unknown>): Promise<ActionResult<{ id: number }>> {
  const merchant = await requireMerchant();
  try {
    assertRoleMay(merchant, 'credentials');
    // The form's step-up field is no part of the credential.
    const { password: stepUpAnswer, ...fields } = input ?? {};
    const channel = credentialChannelNamed(asText(fields.channel));
    const now = new Date();
    await confirmStepUp(getDb(), { accountId: merchant.accountId, sessionId: merchant.sessionId, answer: asText(stepUpAnswer), now, withoutApp: 'nothing' });
    const credential = await submitCredential(getDb(), channel, {
      merchantId: merchant.merchantId,
      actor: portalActor(merchant),
      now,
      credential: Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, asText(value)])),
    });
    revalidatePath(PAGE);
    return { ok: true, data: { id: credential.id } };
  } catch (error) {
    return credentialRefusal(error);
  }
}

export async function setCredentialEnabledAction(credentialId: number, enabled: boolean): Promise<ActionResult<{ enabled: boolean }>> {
  const merchant = await requireMerchant();
  try {
    assertRoleMay(merchant, 'credentials');
    const credential = await setCredentialEnabled(getDb(), {
      credentialId: Number(credentialId),
      scope: { kind: 'merchant', merchantId: merchant.merchantId },
      enabled: enabled === true,
      actor: portalActor(merchant),
      now: new Date(),
    });
    revalidatePath(PAGE);
    return { ok: true, data: { enabled: credential.enabled } };
  } catch (error) {
    return credentialRefusal(error);
  }
}

export async function deleteCredentialAction(credentialId: number): Promise<ActionResult> {
  const merchant = await requireMerchant();
  try {
    assertRoleMay(merchant, 'credentials');
    await deleteCredential(getDb(), { credentialId: Number(credentialId), scope: { kind: 'merchant', merchantId: merchant.merchantId }, actor: portalActor(merchant), now: new Date() });
    revalidatePath(PAGE);
    return { ok: true, data: undefined };
  } catch (error) {
    return credentialRefusal(error);
  }
}
