import { createHash, randomBytes } from 'node:crypto';
import { and, count, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts, merchants, teamInvitations } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { DomainError, actionRefused, notFound } from '../errors/domain-error';
import { domainMessage, type DomainMessage } from '../errors/domain-message';
import { sessionNetworkOf } from './account-sessions';
import { emailSchema, hashPassword, newPasswordSchema } from './passwords';
import { signUpAddressRule, takeAttempt } from './sign-in-throttle';
import { signUpThrottled } from './sign-up-merchant';
import { assertRoleMay, isTeamRole, type TeamRole } from './team-roles';

/** How long an invitation link can be used: long enough to pass on over a weekend, short enough to be no standing key. */
export const INVITATION_LIFETIME_MS = 48 * 60 * 60_000;
/** Open invitations a merchant may hold at once: more is a mistake (or a script), not a team. */
export const OPEN_INVITATIONS_LIMIT = 50;

/** The owner who acts on the team: the portal's merchant context (its role is checked again in the transaction). */
export interface TeamActor {
  accountId: number;
  email: string;
  merchantId: number;
  teamRole: TeamRole;
}

/** Who acted and from which network, for the audit log. */
export interface ActedFrom {
  actor: string;
  clientAddress: string;
}

function tokenHashOf(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

const invalidField = (field: 'email' | 'role', problem: string, message: DomainMessage) => new DomainError('invalid_parameter', { message: `${field}: ${problem}`, fieldErrors: { [field]: message } });

/** Reads the invitation form as the browser sent it (any shape): an email and a role, each refused by name. */
export function invitationInputOf(input: unknown): { email: string; role: TeamRole } {
  const { email, role } = (input !== null && typeof input === 'object' ? input : {}) as { email?: unknown; role?: unknown };
  const parsedEmail = emailSchema.safeParse(email);
  if (!parsedEmail.success) throw invalidField('email', 'not an email address', domainMessage('accounts.team.emailInvalid'));
  if (!isTeamRole(role)) throw invalidField('role', 'not a team role (owner, developer, finance, viewer)', domainMessage('accounts.team.roleInvalid'));
  return { email: parsedEmail.data, role };
}

/**
 * An owner invites a person into the team in a role: a one-time link valid for 48 hours, returned to be passed on
 * (the token is not kept, only its hash). An earlier open invitation of the same email is replaced; a member of the
 * team is not invited again. Audited with the owner's network.
 */
export async function inviteTeamMember(
  db: Database,
  input: { by: TeamActor; invitation: unknown; from: ActedFrom; now: Date },
): Promise<{ id: number; token: string; email: string; role: TeamRole; expiresAt: Date }> {
  assertRoleMay(input.by, 'team');
  const { email, role } = invitationInputOf(input.invitation);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(input.now.getTime() + INVITATION_LIFETIME_MS);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    await lockedOwner(tx, input.by);
    const [member] = await tx
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.merchantId, input.by.merchantId), eq(accounts.email, email)));
    if (member) throw actionRefused(`${email} is already in the team`, domainMessage('accounts.team.alreadyMember', { email }));
    const openNow = and(eq(teamInvitations.merchantId, input.by.merchantId), isNull(teamInvitations.acceptedAt), isNull(teamInvitations.revokedAt), gt(teamInvitations.expiresAt, input.now));
    await tx.update(teamInvitations).set({ revokedAt: input.now }).where(and(openNow, eq(teamInvitations.email, email)));
    const [open] = await tx.select({ n: count() }).from(teamInvitations).where(openNow);
    if ((open?.n ?? 0) >= OPEN_INVITATIONS_LIMIT) {
      throw actionRefused('too many open invitations', domainMessage('accounts.team.tooManyInvitations', { limit: OPEN_INVITATIONS_LIMIT }));
    }
    const [row] = await tx
      .insert(teamInvitations)
      .values({ merchantId: input.by.merchantId, email, teamRole: role, tokenHash: tokenHashOf(token), invitedBy: input.from.actor, createdAt: input.now, expiresAt })
      .returning({ id: teamInvitations.id });
    await recordAudit(tx, {
      actor: input.from.actor,
      action: 'team.invite',
      subject: `invitation:${row!.id}`,
      after: { email, role, expiresAt: expiresAt.toISOString(), from: sessionNetworkOf(input.from.clientAddress) },
    });
    return { id: row!.id, token, email, role, expiresAt };
  });
}

/** The owner withdraws an open invitation: its link stops working at once. */
export async function revokeTeamInvitation(db: Database, input: { by: TeamActor; invitationId: unknown; from: ActedFrom; now: Date }): Promise<void> {
  assertRoleMay(input.by, 'team');
  const id = Number(input.invitationId);
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound('invitation');
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    await lockedOwner(tx, input.by);
    const [revoked] = await tx
      .update(teamInvitations)
      .set({ revokedAt: input.now })
      .where(and(eq(teamInvitations.id, id), eq(teamInvitations.merchantId, input.by.merchantId), isNull(teamInvitations.acceptedAt), isNull(teamInvitations.revokedAt)))
      .returning({ email: teamInvitations.email, role: teamInvitations.teamRole });
    if (!revoked) throw notFound('invitation');
    await recordAudit(tx, { actor: input.from.actor, action: 'team.invitation_revoke', subject: `invitation:${id}`, before: revoked, after: { from: sessionNetworkOf(input.from.clientAddress) } });
  });
}

/**
 * The actor's own row, locked with every account of the merchant, still an owner: a demotion or removal that
 * committed meanwhile refuses the action (and two owners demoting each other cannot leave the team without one).
 */
export async function lockedOwner(tx: Database, actor: TeamActor): Promise<{ id: number; email: string; teamRole: TeamRole | null }[]> {
  const team = await tx.select({ id: accounts.id, email: accounts.email, teamRole: accounts.teamRole }).from(accounts).where(eq(accounts.merchantId, actor.merchantId)).orderBy(accounts.id).for('update');
  const self = team.find((member) => member.id === actor.accountId);
  assertRoleMay({ teamRole: self?.teamRole ?? 'viewer' }, 'team');
  return team;
}

export type InvitationState =
  | { state: 'open'; email: string; role: TeamRole; merchantName: string; expiresAt: Date }
  | { state: 'expired' | 'used' | 'revoked' | 'unknown' };

/** What an invitation link is now, for its page: open (with whom it invites), or why it can no longer be used. */
export async function invitationOfToken(db: Database, token: unknown, now: Date): Promise<InvitationState> {
  if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(token)) return { state: 'unknown' };
  const [row] = await db
    .select({ email: teamInvitations.email, role: teamInvitations.teamRole, merchantName: merchants.name, expiresAt: teamInvitations.expiresAt, acceptedAt: teamInvitations.acceptedAt, revokedAt: teamInvitations.revokedAt })
    .from(teamInvitations)
    .innerJoin(merchants, eq(merchants.id, teamInvitations.merchantId))
    .where(eq(teamInvitations.tokenHash, tokenHashOf(token)));
  if (!row) return { state: 'unknown' };
  const closed = closedStateOf(row, now);
  return closed ? { state: closed } : { state: 'open', email: row.email, role: row.role, merchantName: row.merchantName, expiresAt: row.expiresAt };
}

/** Why an invitation can no longer be used (used, withdrawn, expired), or undefined while it is open. */
function closedStateOf(row: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date }, now: Date): 'used' | 'revoked' | 'expired' | undefined {
  if (row.acceptedAt) return 'used';
  if (row.revokedAt) return 'revoked';
  return row.expiresAt.getTime() <= now.getTime() ? 'expired' : undefined;
}

const invitationClosed = (state: Exclude<InvitationState['state'], 'open'>) =>
  actionRefused(`the invitation is ${state}`, {
    expired: domainMessage('accounts.team.invitationExpired'),
    used: domainMessage('accounts.team.invitationUsed'),
    revoked: domainMessage('accounts.team.invitationRevoked'),
    unknown: domainMessage('accounts.team.invitationUnknown'),
  }[state]);

/**
 * The invited person signs up through the link with a password of their own: an account of the merchant in the
 * invited role, and the link used up, in one transaction (two tabs posting at once make one account). An expired,
 * revoked or used link, or an email that has an account already, creates nothing. Throttled as sign-ups are.
 */
export async function acceptTeamInvitation(db: Database, input: { token: unknown; password: unknown; clientAddress: string; now: Date }): Promise<{ email: string }> {
  const password = newPasswordSchema.safeParse(input.password);
  if (!password.success) {
    throw new DomainError('invalid_parameter', { message: `password: ${password.error.issues[0]?.message}`, fieldErrors: { password: domainMessage('accounts.team.passwordTooShort') } });
  }
  const verdict = await takeAttempt(db, [signUpAddressRule(input.clientAddress)], input.now);
  if (!verdict.allowed) throw signUpThrottled();
  const before = await invitationOfToken(db, input.token, input.now);
  if (before.state !== 'open') throw invitationClosed(before.state);
  const passwordHash = await hashPassword(password.data);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [invitation] = await tx.select().from(teamInvitations).where(eq(teamInvitations.tokenHash, tokenHashOf(String(input.token)))).for('update');
    if (!invitation) throw invitationClosed('unknown');
    const closed = closedStateOf(invitation, input.now);
    if (closed) throw invitationClosed(closed);
    const [created] = await tx
      .insert(accounts)
      .values({ email: invitation.email, passwordHash, role: 'merchant', teamRole: invitation.teamRole, merchantId: invitation.merchantId })
      .onConflictDoNothing({ target: accounts.email })
      .returning({ id: accounts.id });
    if (!created) throw actionRefused(`${invitation.email} already has an account`, domainMessage('accounts.team.emailTaken', { email: invitation.email }));
    await tx.update(teamInvitations).set({ acceptedAt: input.now, acceptedAccountId: created.id }).where(eq(teamInvitations.id, invitation.id));
    await recordAudit(tx, {
      actor: `account:${invitation.email}`,
      action: 'team.invitation_accept',
      subject: `invitation:${invitation.id}`,
      after: { merchantId: invitation.merchantId, role: invitation.teamRole, accountId: created.id, from: sessionNetworkOf(input.clientAddress) },
    });
    return { email: invitation.email };
  });
}
