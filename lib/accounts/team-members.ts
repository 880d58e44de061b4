import { and, asc, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accountHasPasskey, accounts, accountTotpFactors, merchants, teamInvitations } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { actionRefused, notFound } from '../errors/domain-error';
import { domainMessage } from '../errors/domain-message';
import { sessionNetworkOf } from './account-sessions';
import { lockedOwner, type ActedFrom, type TeamActor } from './team-invitations';
import { assertRoleMay, isTeamRole, TEAM_ROLES, type TeamRole } from './team-roles';

export interface TeamMember {
  accountId: number;
  email: string;
  role: TeamRole;
  joinedAt: Date;
  secondFactor: boolean;
}

export interface OpenInvitation {
  id: number;
  email: string;
  role: TeamRole;
  invitedAt: Date;
  expiresAt: Date;
}

/** The team page: its members (owners first), the invitations still open, and whether two-step sign-in is required. */
export async function listTeam(db: Database, merchantId: number, now: Date): Promise<{ members: TeamMember[]; invitations: OpenInvitation[]; secondFactorRequired: boolean }> {
  const [members, invitations, [merchant]] = await Promise.all([
    db
      .select({ accountId: accounts.id, email: accounts.email, role: accounts.teamRole, joinedAt: accounts.createdAt, factorConfirmedAt: accountTotpFactors.confirmedAt, hasPasskey: accountHasPasskey })
      .from(accounts)
      .leftJoin(accountTotpFactors, eq(accountTotpFactors.accountId, accounts.id))
      .where(and(eq(accounts.merchantId, merchantId), eq(accounts.role, 'merchant')))
      .orderBy(asc(accounts.id)),
    db
      .select({ id: teamInvitations.id, email: teamInvitations.email, role: teamInvitations.teamRole, invitedAt: teamInvitations.createdAt, expiresAt: teamInvitations.expiresAt })
      .from(teamInvitations)
      .where(and(eq(teamInvitations.merchantId, merchantId), isNull(teamInvitations.acceptedAt), isNull(teamInvitations.revokedAt), gt(teamInvitations.expiresAt, now)))
      .orderBy(desc(teamInvitations.createdAt)),
    db.select({ required: merchants.teamRequiresSecondFactor }).from(merchants).where(eq(merchants.id, merchantId)),
  ]);
  return {
    members: members
      .flatMap(({ factorConfirmedAt, hasPasskey, role, ...member }) => (role ? [{ ...member, role, secondFactor: Boolean(factorConfirmedAt) || hasPasskey }] : []))
      .sort((a, b) => TEAM_ROLES.indexOf(a.role) - TEAM_ROLES.indexOf(b.role)),
    invitations,
    secondFactorRequired: merchant?.required ?? false,
  };
}

const lastOwner = () => actionRefused('the team must keep an owner', domainMessage('accounts.team.lastOwner'));

/** The member of the locked team that the owner named, never one of another merchant (not found). */
function memberOf(team: { id: number; email: string; teamRole: TeamRole | null }[], accountId: unknown) {
  const member = team.find((row) => row.id === Number(accountId));
  if (!member?.teamRole) throw notFound('team member');
  return { id: member.id, email: member.email, teamRole: member.teamRole };
}

function ownersLeft(team: { id: number; teamRole: TeamRole | null }[], changed: Map<number, TeamRole | undefined>): number {
  return team.filter((row) => (changed.has(row.id) ? changed.get(row.id) : row.teamRole) === 'owner').length;
}

/**
 * An owner gives a member another role (themselves included, while another owner remains). The new role holds from
 * the member's next request: every page and action reads it again.
 */
export async function changeTeamRole(db: Database, input: { by: TeamActor; accountId: unknown; role: unknown; from: ActedFrom }): Promise<{ email: string; role: TeamRole }> {
  assertRoleMay(input.by, 'team');
  const role = input.role;
  if (!isTeamRole(role)) throw actionRefused('role: not a team role', domainMessage('accounts.team.roleInvalid'));
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const team = await lockedOwner(tx, input.by);
    const member = memberOf(team, input.accountId);
    if (ownersLeft(team, new Map([[member.id, role]])) === 0) throw lastOwner();
    await tx.update(accounts).set({ teamRole: role }).where(eq(accounts.id, member.id));
    const { email } = member;
    await recordAudit(tx, {
      actor: input.from.actor,
      action: 'team.role_change',
      subject: `account:${email}`,
      before: { role: member.teamRole },
      after: { role, from: sessionNetworkOf(input.from.clientAddress) },
    });
    return { email, role };
  });
}

/**
 * An owner removes a member: the account is deleted with its sessions and factors (the audit log keeps its email),
 * so its sessions end at once and the email can be invited again. An owner removes themselves only by handing the
 * team to another owner first; the last owner stays.
 */
export async function removeTeamMember(db: Database, input: { by: TeamActor; accountId: unknown; from: ActedFrom }): Promise<{ email: string }> {
  assertRoleMay(input.by, 'team');
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const team = await lockedOwner(tx, input.by);
    const member = memberOf(team, input.accountId);
    if (member.id === input.by.accountId) throw actionRefused('an owner does not remove themselves', domainMessage('accounts.team.notYourself'));
    if (ownersLeft(team, new Map([[member.id, undefined]])) === 0) throw lastOwner();
    const { email } = member;
    await tx.update(teamInvitations).set({ acceptedAccountId: null }).where(eq(teamInvitations.acceptedAccountId, member.id));
    await tx.delete(accounts).where(eq(accounts.id, member.id));
    await recordAudit(tx, { actor: input.from.actor, action: 'team.member_remove', subject: `account:${email}`, before: { role: member.teamRole }, after: { from: sessionNetworkOf(input.from.clientAddress) } });
    return { email };
  });
}

/** An owner hands the team to a member: the member becomes an owner and the owner takes the role they chose. */
export async function transferOwnership(db: Database, input: { by: TeamActor; accountId: unknown; ownNewRole: unknown; from: ActedFrom }): Promise<{ email: string }> {
  assertRoleMay(input.by, 'team');
  const ownNewRole = input.ownNewRole;
  if (!isTeamRole(ownNewRole) || ownNewRole === 'owner') throw actionRefused('ownNewRole: developer, finance or viewer', domainMessage('accounts.team.roleInvalid'));
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const team = await lockedOwner(tx, input.by);
    const member = memberOf(team, input.accountId);
    if (member.id === input.by.accountId) throw actionRefused('ownership goes to another member', domainMessage('accounts.team.notYourself'));
    await tx.update(accounts).set({ teamRole: 'owner' }).where(eq(accounts.id, member.id));
    await tx.update(accounts).set({ teamRole: ownNewRole }).where(eq(accounts.id, input.by.accountId));
    const { email } = member;
    await recordAudit(tx, {
      actor: input.from.actor,
      action: 'team.ownership_transfer',
      subject: `account:${email}`,
      before: { role: member.teamRole, ownerRole: 'owner' },
      after: { role: 'owner', ownerRole: ownNewRole, from: sessionNetworkOf(input.from.clientAddress) },
    });
    return { email };
  });
}
