import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseUrlOn, onDatabaseServer, uniqueDatabaseName } from '../../test/database-server';
import { getDb } from '../db/client';
import { accounts, accountSessions, auditLog, teamInvitations } from '../db/schema';
import { DomainError } from '../errors/domain-error';
import { merchantContextOf, type MerchantContext } from '../portal/merchant-context';
import { openAccountSession } from './account-sessions';
import { authenticateAccount } from './authenticate-account';
import { signUpMerchant } from './sign-up-merchant';
import { acceptTeamInvitation, INVITATION_LIFETIME_MS, invitationOfToken, inviteTeamMember, revokeTeamInvitation } from './team-invitations';
import { changeTeamRole, listTeam, removeTeamMember, transferOwnership } from './team-members';
import { setTeamSecondFactorRequired } from './team-second-factor';
import { confirmTotpEnrolment, startTotpEnrolment } from './totp-factor';
import { authenticatorCode } from '../../test/totp-code';
import { assertRoleMay, roleMay, TEAM_ABILITIES, TEAM_ROLES } from './team-roles';

const PASSWORD = 'team member password 1';
let sequence = 0;
const anEmail = (label: string) => `${label}${(sequence += 1)}-${process.pid}-${Date.now()}@team.example`;
const from = (context: MerchantContext) => ({ actor: `account:${context.email}`, clientAddress: '198.51.100.7' });

async function aMerchantOwner(): Promise<MerchantContext> {
  const { accountId } = await signUpMerchant(getDb(), { merchantName: `Team ${sequence}`, email: anEmail('owner'), password: PASSWORD, clientAddress: `203.0.113.${(sequence % 200) + 1}`, now: new Date() });
  return (await merchantContextOf(getDb(), accountId))!;
}

async function aMember(owner: MerchantContext, role: string, now = new Date()): Promise<MerchantContext> {
  const invited = await inviteTeamMember(getDb(), { by: owner, invitation: { email: anEmail(role), role }, from: from(owner), now });
  await acceptTeamInvitation(getDb(), { token: invited.token, password: PASSWORD, clientAddress: '198.51.100.8', now });
  const [row] = await getDb().select({ id: accounts.id }).from(accounts).where(eq(accounts.email, invited.email));
  return (await merchantContextOf(getDb(), row!.id))!;
}

async function refusalOf(work: Promise<unknown>): Promise<{ kind: string; key?: string; fields?: string[] }> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { kind: error.kind, key: error.userMessage?.key, fields: error.fieldErrors ? Object.keys(error.fieldErrors) : undefined };
}

describe('team roles', () => {
  it('owner may everything; developer no refunds or statements; finance never the keys; viewer only reads', () => {
    const may = Object.fromEntries(TEAM_ROLES.map((role) => [role, TEAM_ABILITIES.filter((ability) => roleMay(role, ability))]));
    expect(may).toEqual({
      owner: TEAM_ABILITIES,
      developer: ['viewOrders', 'resendNotifications', 'keys', 'credentials', 'branding', 'developerTools', 'merchantSettings'],
      finance: ['viewOrders', 'refund', 'closeOrders', 'statements'],
      viewer: ['viewOrders'],
    });
    expect(() => assertRoleMay({ teamRole: 'finance' }, 'keys')).toThrow(DomainError);
  });
});

describe('invitations', () => {
  it('an owner invites; the link signs up one account in the role, then is used up; all audited with the network', async () => {
    const owner = await aMerchantOwner();
    const now = new Date();
    const email = anEmail('finance');
    const invited = await inviteTeamMember(getDb(), { by: owner, invitation: { email: ` ${email.toUpperCase()} `, role: 'finance' }, from: from(owner), now });
    expect(invited).toMatchObject({ email, role: 'finance', expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS) });
    expect(invited.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the token's hash is stored.
    const [stored] = await getDb().select().from(teamInvitations).where(eq(teamInvitations.id, invited.id));
    expect(JSON.stringify(stored)).not.toContain(invited.token);
    expect(await invitationOfToken(getDb(), invited.token, now)).toMatchObject({ state: 'open', email, role: 'finance', merchantName: owner.merchantName });
    expect((await listTeam(getDb(), owner.merchantId, now)).invitations.map((row) => row.email)).toEqual([email]);

    // Two tabs posting at once make one account.
    const outcomes = await Promise.allSettled([0, 1].map(() => acceptTeamInvitation(getDb(), { token: invited.token, password: PASSWORD, clientAddress: '198.51.100.9', now })));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(await getDb().$count(accounts, eq(accounts.email, email))).toBe(1);
    expect(await invitationOfToken(getDb(), invited.token, now)).toEqual({ state: 'used' });
    expect(await refusalOf(acceptTeamInvitation(getDb(), { token: invited.token, password: PASSWORD, clientAddress: '198.51.100.9', now }))).toMatchObject({ key: 'accounts.team.invitationUsed' });

    const signedIn = await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: '198.51.100.9', now: new Date() });
    expect(signedIn.ok).toBe(true);
    const member = await merchantContextOf(getDb(), signedIn.ok ? signedIn.account.id : 0);
    expect(member).toMatchObject({ merchantId: owner.merchantId, teamRole: 'finance', appId: owner.appId });
    const team = await listTeam(getDb(), owner.merchantId, now);
    expect(team.members.map((row) => [row.email, row.role])).toEqual([
      [owner.email, 'owner'],
      [email, 'finance'],
    ]);
    expect(team.invitations).toEqual([]);
    const audit = await getDb().select().from(auditLog).where(inArray(auditLog.subject, [`invitation:${invited.id}`]));
    expect(audit.map((entry) => [entry.action, entry.actor])).toEqual([
      ['team.invite', `account:${owner.email}`],
      ['team.invitation_accept', `account:${email}`],
    ]);
    expect(audit[0]!.after).toMatchObject({ email, role: 'finance', from: '198.51.100.0/24' });
  });

  it('refuses bad input by field, a non-owner, a member invited again, and expired, revoked or unknown links, creating nothing', async () => {
    const owner = await aMerchantOwner();
    const now = new Date();
    expect(await refusalOf(inviteTeamMember(getDb(), { by: owner, invitation: { email: 'not-an-email', role: 'viewer' }, from: from(owner), now }))).toMatchObject({ kind: 'invalid_parameter', fields: ['email'] });
    expect(await refusalOf(inviteTeamMember(getDb(), { by: owner, invitation: { email: anEmail('x'), role: 'admin' }, from: from(owner), now }))).toMatchObject({ kind: 'invalid_parameter', fields: ['role'] });
    expect(await refusalOf(inviteTeamMember(getDb(), { by: owner, invitation: { email: owner.email, role: 'viewer' }, from: from(owner), now }))).toMatchObject({ key: 'accounts.team.alreadyMember' });
    const developer = await aMember(owner, 'developer');
    expect(await refusalOf(inviteTeamMember(getDb(), { by: developer, invitation: { email: anEmail('x'), role: 'viewer' }, from: from(developer), now }))).toMatchObject({ key: 'accounts.roleNotPermitted' });

    const expiring = await inviteTeamMember(getDb(), { by: owner, invitation: { email: anEmail('late'), role: 'viewer' }, from: from(owner), now });
    const later = new Date(now.getTime() + INVITATION_LIFETIME_MS);
    expect(await invitationOfToken(getDb(), expiring.token, later)).toEqual({ state: 'expired' });
    expect(await refusalOf(acceptTeamInvitation(getDb(), { token: expiring.token, password: PASSWORD, clientAddress: '198.51.100.10', now: later }))).toMatchObject({ key: 'accounts.team.invitationExpired' });

    const withdrawn = await inviteTeamMember(getDb(), { by: owner, invitation: { email: anEmail('withdrawn'), role: 'viewer' }, from: from(owner), now });
    await revokeTeamInvitation(getDb(), { by: owner, invitationId: withdrawn.id, from: from(owner), now });
    expect(await refusalOf(acceptTeamInvitation(getDb(), { token: withdrawn.token, password: PASSWORD, clientAddress: '198.51.100.10', now }))).toMatchObject({ key: 'accounts.team.invitationRevoked' });
    expect(await refusalOf(acceptTeamInvitation(getDb(), { token: 'x'.repeat(43), password: PASSWORD, clientAddress: '198.51.100.10', now }))).toMatchObject({ key: 'accounts.team.invitationUnknown' });
    expect(await refusalOf(acceptTeamInvitation(getDb(), { token: expiring.token, password: 'short', clientAddress: '198.51.100.10', now }))).toMatchObject({ fields: ['password'] });

    // Another merchant's owner cannot withdraw this merchant's invitation.
    const other = await aMerchantOwner();
    const open = await inviteTeamMember(getDb(), { by: owner, invitation: { email: anEmail('open'), role: 'viewer' }, from: from(owner), now });
    expect(await refusalOf(revokeTeamInvitation(getDb(), { by: other, invitationId: open.id, from: from(other), now }))).toMatchObject({ kind: 'not_found' });
    expect(await invitationOfToken(getDb(), open.token, now)).toMatchObject({ state: 'open' });
    expect(await getDb().$count(accounts, inArray(accounts.email, [expiring.email, withdrawn.email]))).toBe(0);
  });

  it('an email that already has an account is refused at sign-up, and the link stays open', async () => {
    const owner = await aMerchantOwner();
    const other = await aMerchantOwner();
    const now = new Date();
    const invited = await inviteTeamMember(getDb(), { by: owner, invitation: { email: other.email, role: 'viewer' }, from: from(owner), now });
    expect(await refusalOf(acceptTeamInvitation(getDb(), { token: invited.token, password: PASSWORD, clientAddress: '198.51.100.11', now }))).toMatchObject({ key: 'accounts.team.emailTaken' });
    expect(await merchantContextOf(getDb(), other.accountId)).toMatchObject({ merchantId: other.merchantId, teamRole: 'owner' });
    expect(await invitationOfToken(getDb(), invited.token, now)).toMatchObject({ state: 'open' });
  });
});

describe('members', () => {
  it('an owner changes roles and removes members; the team keeps an owner; another merchant’s member is not found', async () => {
    const owner = await aMerchantOwner();
    const developer = await aMember(owner, 'developer');
    const changed = await changeTeamRole(getDb(), { by: owner, accountId: developer.accountId, role: 'viewer', from: from(owner) });
    expect(changed).toEqual({ email: developer.email, role: 'viewer' });
    expect((await merchantContextOf(getDb(), developer.accountId))!.teamRole).toBe('viewer');

    expect(await refusalOf(changeTeamRole(getDb(), { by: owner, accountId: owner.accountId, role: 'developer', from: from(owner) }))).toMatchObject({ key: 'accounts.team.lastOwner' });
    expect(await refusalOf(removeTeamMember(getDb(), { by: owner, accountId: owner.accountId, from: from(owner) }))).toMatchObject({ key: 'accounts.team.notYourself' });
    const viewer = (await merchantContextOf(getDb(), developer.accountId))!;
    expect(await refusalOf(changeTeamRole(getDb(), { by: viewer, accountId: viewer.accountId, role: 'owner', from: from(viewer) }))).toMatchObject({ key: 'accounts.roleNotPermitted' });
    const other = await aMerchantOwner();
    expect(await refusalOf(removeTeamMember(getDb(), { by: other, accountId: developer.accountId, from: from(other) }))).toMatchObject({ kind: 'not_found' });
    expect(await refusalOf(changeTeamRole(getDb(), { by: owner, accountId: developer.accountId, role: 'admin', from: from(owner) }))).toMatchObject({ key: 'accounts.team.roleInvalid' });

    // Removal deletes the account: its session is no longer live, and the email can be invited again.
    const sessionId = await openAccountSession(getDb(), { accountId: developer.accountId, sessionVersion: 0, userAgent: 'test', clientAddress: '198.51.100.12', now: new Date() });
    await removeTeamMember(getDb(), { by: owner, accountId: developer.accountId, from: from(owner) });
    expect(await getDb().$count(accountSessions, eq(accountSessions.id, sessionId))).toBe(0);
    expect(await merchantContextOf(getDb(), developer.accountId)).toBeUndefined();
    await inviteTeamMember(getDb(), { by: owner, invitation: { email: developer.email, role: 'finance' }, from: from(owner), now: new Date() });
    const actions = await getDb().select({ action: auditLog.action, before: auditLog.before }).from(auditLog).where(eq(auditLog.subject, `account:${developer.email}`));
    expect(actions).toEqual([
      { action: 'team.role_change', before: { role: 'developer' } },
      { action: 'team.member_remove', before: { role: 'viewer' } },
    ]);
  });

  it('ownership hands over: the member becomes an owner, the owner takes the role chosen; two owners demoting each other keep one', async () => {
    const owner = await aMerchantOwner();
    const finance = await aMember(owner, 'finance');
    expect(await refusalOf(transferOwnership(getDb(), { by: owner, accountId: finance.accountId, ownNewRole: 'owner', from: from(owner) }))).toMatchObject({ key: 'accounts.team.roleInvalid' });
    await transferOwnership(getDb(), { by: owner, accountId: finance.accountId, ownNewRole: 'developer', from: from(owner) });
    expect((await merchantContextOf(getDb(), finance.accountId))!.teamRole).toBe('owner');
    const former = (await merchantContextOf(getDb(), owner.accountId))!;
    expect(former.teamRole).toBe('developer');
    // The former owner's old context (read before the hand-over) is checked again in the transaction.
    expect(await refusalOf(removeTeamMember(getDb(), { by: owner, accountId: finance.accountId, from: from(owner) }))).toMatchObject({ key: 'accounts.roleNotPermitted' });

    const newOwner = (await merchantContextOf(getDb(), finance.accountId))!;
    await changeTeamRole(getDb(), { by: newOwner, accountId: owner.accountId, role: 'owner', from: from(newOwner) });
    const [a, b] = await Promise.all([merchantContextOf(getDb(), owner.accountId), merchantContextOf(getDb(), finance.accountId)]);
    const outcomes = await Promise.allSettled([
      changeTeamRole(getDb(), { by: a!, accountId: b!.accountId, role: 'viewer', from: from(a!) }),
      changeTeamRole(getDb(), { by: b!, accountId: a!.accountId, role: 'viewer', from: from(b!) }),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const roles = await getDb().select({ role: accounts.teamRole }).from(accounts).where(and(eq(accounts.merchantId, owner.merchantId)));
    expect(roles.filter((row) => row.role === 'owner')).toHaveLength(1);
  });
});

describe('two-step sign-in required of the team', () => {
  it('needs the owner’s own authenticator; then a member without one must set one up; audited', async () => {
    const owner = await aMerchantOwner();
    const member = await aMember(owner, 'finance');
    expect(await refusalOf(setTeamSecondFactorRequired(getDb(), { by: owner, required: true, from: from(owner), now: new Date() }))).toMatchObject({ key: 'accounts.team.ownFactorFirst' });
    expect(await refusalOf(setTeamSecondFactorRequired(getDb(), { by: member, required: true, from: from(member), now: new Date() }))).toMatchObject({ key: 'accounts.roleNotPermitted' });
    const now = new Date(Math.floor(Date.now() / 30_000) * 30_000);
    const { secret } = await startTotpEnrolment(getDb(), { accountId: owner.accountId, now });
    await confirmTotpEnrolment(getDb(), { accountId: owner.accountId, code: authenticatorCode(secret, now), now });
    expect(await setTeamSecondFactorRequired(getDb(), { by: owner, required: true, from: from(owner), now })).toBe(true);
    expect((await merchantContextOf(getDb(), member.accountId))!.mustSetUpSecondFactor).toBe(true);
    expect((await merchantContextOf(getDb(), owner.accountId))!.mustSetUpSecondFactor).toBe(false);
    const other = await aMerchantOwner();
    expect((await merchantContextOf(getDb(), other.accountId))!.mustSetUpSecondFactor).toBe(false);
    expect((await listTeam(getDb(), owner.merchantId, now)).secondFactorRequired).toBe(true);
    expect(await setTeamSecondFactorRequired(getDb(), { by: owner, required: false, from: from(owner), now })).toBe(false);
    expect((await merchantContextOf(getDb(), member.accountId))!.mustSetUpSecondFactor).toBe(false);
    const audit = await getDb().select({ after: auditLog.after }).from(auditLog).where(and(eq(auditLog.action, 'team.second_factor_required'), eq(auditLog.subject, `merchant:${owner.appId}`)));
    expect(audit.map((entry) => (entry.after as { required: boolean }).required)).toEqual([true, false]);
  });
});

describe('migration 0044 on an existing database', () => {
  it('makes the existing merchant account its owner; operators get no role; nothing else changes', async () => {
    const serverUrl = process.env.DATABASE_URL!.replace(/\/[^/]*$/, '/postgres');
    const name = uniqueDatabaseName('upgrade');
    const folder = path.join(import.meta.dirname, '../db/migrations');
    const files = readdirSync(folder).filter((file) => file.endsWith('.sql')).sort();
    const apply = (client: { query: (text: string) => Promise<unknown> }, file: string) =>
      readFileSync(path.join(folder, file), 'utf8')
        .split('--> statement-breakpoint')
        .reduce((done, statement) => done.then(() => client.query(statement)), Promise.resolve<unknown>(undefined));
    await onDatabaseServer(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
    try {
      await onDatabaseServer(databaseUrlOn(serverUrl, name), async (client) => {
        for (const file of files.filter((file) => file < '0044')) await apply(client, file);
        await client.query(`INSERT INTO merchants (app_id, app_secret_encrypted, name) VALUES ('APPUPGRADE', 'x', 'Before teams')`);
        await client.query(`INSERT INTO accounts (email, password_hash, role, merchant_id) SELECT 'owner@before.example', 'h', 'merchant', id FROM merchants WHERE app_id = 'APPUPGRADE'`);
        await client.query(`INSERT INTO accounts (email, password_hash, role) VALUES ('ops@before.example', 'h', 'operator')`);
        const before = (await client.query('SELECT id, email, password_hash, session_version FROM accounts ORDER BY id')).rows;
        for (const file of files.filter((file) => file >= '0044')) await apply(client, file);
        const after = (await client.query('SELECT id, email, password_hash, session_version, team_role FROM accounts ORDER BY id')).rows;
        expect(after).toEqual([
          { ...before[0], team_role: 'owner' },
          { ...before[1], team_role: null },
        ]);
        await expect(client.query(`UPDATE accounts SET team_role = 'admin' WHERE email = 'owner@before.example'`)).rejects.toThrow(/accounts_team_role_check/);
      });
    } finally {
      await onDatabaseServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    }
  });
});
