'use server';

import { headers } from 'next/headers';
import { revalidatePath } from 'next/cache';
import { clientAddressFrom } from '@/lib/accounts/client-address';
import { confirmStepUp } from '@/lib/accounts/step-up';
import { assertRoleMay } from '@/lib/accounts/team-roles';
import { inviteTeamMember, revokeTeamInvitation } from '@/lib/accounts/team-invitations';
import { changeTeamRole, removeTeamMember, transferOwnership } from '@/lib/accounts/team-members';
import { setTeamSecondFactorRequired } from '@/lib/accounts/team-second-factor';
import { publicBaseUrl } from '@/lib/orders/identifiers';
import { invitationMail } from '@/lib/mail/invitation-mail';
import { mailSettings } from '@/lib/mail/mail-settings';
import { sendMail } from '@/lib/mail/send-mail';
import { getDb } from '@/lib/db/client';
import { portalActor, type MerchantContext } from '@/lib/portal/merchant-context';
import { refusal, type ActionResult } from '../../_session/action-result';
import { requireMerchant } from '../../_session/require-merchant';

const PAGE = '/portal/team';

async function actedFrom(merchant: MerchantContext) {
  return { actor: portalActor(merchant), clientAddress: clientAddressFrom((await headers()).get('x-forwarded-for')) };
}

/** Invites a person in a role: the one-time link is shown to the owner (this once) to pass on. */
export async function inviteMemberAction(input: { email: string; role: string; password?: string }): Promise<ActionResult<{ email: string; link: string; expiresAt: string; mailed: 'sent' | 'failed' | 'off' }>> {
  const merchant = await requireMerchant();
  try {
    assertRoleMay(merchant, 'team');
    const now = new Date();
    // Adding a member is sensitive: an account with an authenticator app answers the step-up (lib/accounts/step-up.ts).
    await confirmStepUp(getDb(), { accountId: merchant.accountId, sessionId: merchant.sessionId, answer: typeof input?.password === 'string' ? input.password : '', now, withoutApp: 'nothing' });
    const invitation = await inviteTeamMember(getDb(), { by: merchant, invitation: { email: input?.email, role: input?.role }, from: await actedFrom(merchant), now });
    revalidatePath(PAGE);
    const link = `${publicBaseUrl()}/portal/invite/${invitation.token}`;
    // E-mailed where the service sends mail (SMTP_URL); the link is shown either way, and a failed e-mail leaves it valid.
    const mail = mailSettings();
    const mailed = mail
      ? await sendMail(mail, invitationMail({ to: invitation.email, inviter: merchant.email, merchantName: merchant.merchantName, role: invitation.role, link, expiresAt: invitation.expiresAt, timeZone: merchant.timeZone }), 'team_invitation')
      : 'off';
    return { ok: true, data: { email: invitation.email, link, expiresAt: invitation.expiresAt.toISOString(), mailed } };
  } catch (error) {
    return refusal(error);
  }
}

export async function revokeInvitationAction(invitationId: number): Promise<ActionResult> {
  const merchant = await requireMerchant();
  try {
    await revokeTeamInvitation(getDb(), { by: merchant, invitationId, from: await actedFrom(merchant), now: new Date() });
    revalidatePath(PAGE);
    return { ok: true, data: undefined };
  } catch (error) {
    return refusal(error);
  }
}

export async function changeRoleAction(accountId: number, role: string): Promise<ActionResult<{ email: string; role: string }>> {
  const merchant = await requireMerchant();
  try {
    const changed = await changeTeamRole(getDb(), { by: merchant, accountId, role, from: await actedFrom(merchant) });
    revalidatePath(PAGE);
    return { ok: true, data: changed };
  } catch (error) {
    return refusal(error);
  }
}

export async function removeMemberAction(accountId: number): Promise<ActionResult<{ email: string }>> {
  const merchant = await requireMerchant();
  try {
    const removed = await removeTeamMember(getDb(), { by: merchant, accountId, from: await actedFrom(merchant) });
    revalidatePath(PAGE);
    return { ok: true, data: removed };
  } catch (error) {
    return refusal(error);
  }
}

/** Hands the team to a member; the owner keeps the role they chose (and so leaves the team page). */
export async function transferOwnershipAction(accountId: number, ownNewRole: string): Promise<ActionResult<{ email: string }>> {
  const merchant = await requireMerchant();
  try {
    const transferred = await transferOwnership(getDb(), { by: merchant, accountId, ownNewRole, from: await actedFrom(merchant) });
    revalidatePath('/portal', 'layout');
    return { ok: true, data: transferred };
  } catch (error) {
    return refusal(error);
  }
}

/** Requires (or stops requiring) two-step sign-in of every member; the owner needs an authenticator of their own first. */
export async function setTeamSecondFactorAction(required: boolean, password?: string): Promise<ActionResult<{ enabled: boolean }>> {
  const merchant = await requireMerchant();
  try {
    // Who may change the rule first; then the step-up of an owner with a second factor (nothing of one without).
    assertRoleMay(merchant, 'team');
    await confirmStepUp(getDb(), { accountId: merchant.accountId, sessionId: merchant.sessionId, answer: typeof password === 'string' ? password : '', now: new Date(), withoutApp: 'nothing' });
    const enabled = await setTeamSecondFactorRequired(getDb(), { by: merchant, required, from: await actedFrom(merchant), now: new Date() });
    revalidatePath(PAGE);
    return { ok: true, data: { enabled } };
  } catch (error) {
    return refusal(error);
  }
}
