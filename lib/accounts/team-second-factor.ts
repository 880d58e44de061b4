import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { merchants } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { actionRefused, notFound } from '../errors/domain-error';
import { domainMessage } from '../errors/domain-message';
import { sessionNetworkOf } from './account-sessions';
import { lockedOwner, type ActedFrom, type TeamActor } from './team-invitations';
import { hasAnySecondFactor, secondFactorsOf } from './second-factors';
import { assertRoleMay } from './team-roles';

/**
 * The owner requires (or stops requiring) two-step sign-in of every member. While it is required, a member without a
 * confirmed authenticator app or a passkey reaches only their account page, to set one up (lib/portal/merchant-context.ts). The owner
 * turns it on only with a second factor of their own, so the rule never locks out the person who set it.
 */
export async function setTeamSecondFactorRequired(db: Database, input: { by: TeamActor; required: unknown; from: ActedFrom; now: Date }): Promise<boolean> {
  assertRoleMay(input.by, 'team');
  const required = input.required === true;
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    await lockedOwner(tx, input.by);
    const [merchant] = await tx.select({ appId: merchants.appId, required: merchants.teamRequiresSecondFactor }).from(merchants).where(eq(merchants.id, input.by.merchantId)).for('update');
    if (!merchant) throw notFound('merchant');
    if (merchant.required === required) return required;
    if (required) {
      if (!hasAnySecondFactor(await secondFactorsOf(tx, input.by.accountId))) throw actionRefused('the owner has no authenticator of their own', domainMessage('accounts.team.ownFactorFirst'));
    }
    await tx.update(merchants).set({ teamRequiresSecondFactor: required, updatedAt: input.now }).where(eq(merchants.id, input.by.merchantId));
    await recordAudit(tx, {
      actor: input.from.actor,
      action: 'team.second_factor_required',
      subject: `merchant:${merchant.appId}`,
      before: { required: merchant.required },
      after: { required, from: sessionNetworkOf(input.from.clientAddress) },
    });
    return required;
  });
}
