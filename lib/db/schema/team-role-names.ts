/**
 * A merchant account's role in its merchant's team, as the accounts and invitations tables hold it: what each may do
 * is lib/accounts/team-roles.ts. A module of its own, importing nothing, so the portal's navigation can name roles in
 * the browser without the schema.
 */
export const TEAM_ROLES = ['owner', 'developer', 'finance', 'viewer'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
