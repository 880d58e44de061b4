import { DomainError } from '../errors/domain-error';
import { domainMessage } from '../errors/domain-message';
import { TEAM_ROLES, type TeamRole } from '../db/schema/team-role-names';

export { TEAM_ROLES, type TeamRole };

/**
 * What a merchant's team member may do, by role (docs/portal.md, "Team members and roles"). The portal asks this on
 * the server for every page, action and route; its navigation shows only what the role may open.
 * - owner: everything, and the team itself (invitations, roles, removal, ownership).
 * - developer: the interface keys, upstream credentials, checkout branding, the API page, the signature checker,
 *   test mode, notifications and the merchant's settings; never refunds or statements.
 * - finance: orders, refunds, closing orders and statements; never the AppSecret or the upstream keys.
 * - viewer: reads the overview and the orders; no secrets, no changes.
 * Every member has their own account page (password, two-step sign-in, sessions).
 */
const ABILITIES = {
  viewOrders: ['owner', 'developer', 'finance', 'viewer'],
  refund: ['owner', 'finance'],
  closeOrders: ['owner', 'finance'],
  statements: ['owner', 'finance'],
  resendNotifications: ['owner', 'developer'],
  keys: ['owner', 'developer'],
  credentials: ['owner', 'developer'],
  branding: ['owner', 'developer'],
  developerTools: ['owner', 'developer'],
  merchantSettings: ['owner', 'developer'],
  team: ['owner'],
} as const satisfies Record<string, readonly TeamRole[]>;

export type TeamAbility = keyof typeof ABILITIES;
export const TEAM_ABILITIES = Object.keys(ABILITIES) as TeamAbility[];

export function isTeamRole(value: unknown): value is TeamRole {
  return typeof value === 'string' && (TEAM_ROLES as readonly string[]).includes(value);
}

export function roleMay(role: TeamRole, ability: TeamAbility): boolean {
  return (ABILITIES[ability] as readonly TeamRole[]).includes(role);
}

/** A role's name as the member reads it, in their language. */
export function teamRoleName(role: TeamRole) {
  const names = {
    owner: domainMessage('accounts.teamRoles.owner'),
    developer: domainMessage('accounts.teamRoles.developer'),
    finance: domainMessage('accounts.teamRoles.finance'),
    viewer: domainMessage('accounts.teamRoles.viewer'),
  };
  return names[role];
}

/** Refuses, naming the member's role, what it may not do; nothing is read or changed before this check. */
export function assertRoleMay(member: { teamRole: TeamRole }, ability: TeamAbility): void {
  if (roleMay(member.teamRole, ability)) return;
  throw new DomainError('action_refused', {
    message: `the ${member.teamRole} role may not ${ability}`,
    userMessage: domainMessage('accounts.roleNotPermitted', { role: teamRoleName(member.teamRole) }),
  });
}
