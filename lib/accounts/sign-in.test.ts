import { and, eq } from 'drizzle-orm';
import { runAdmin, runAdminJson } from '../cli/run-admin-for-tests';
import { describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { accounts, auditLog, merchants } from '../db/schema';
import { loadMerchantContext } from '../portal/merchant-context';
import { openAccountSession, SESSION_IDLE_LIMIT_MS } from './account-sessions';
import { createAccount } from './accounts';
import { portalAuthSecret } from './auth-secret';
import { authenticateAccount } from './authenticate-account';
import { changePassword } from './change-password';
import { clientAddressFrom } from './client-address';
import { listSignInLockouts, signInFailuresOf } from './sign-in-lockouts';
import { ACCOUNT_DAILY_CAP, NETWORK_DAILY_CAP, PAIR_LIMIT } from './sign-in-throttle';
import { requestSignUp, signUpMerchant } from './sign-up-merchant';

let sequence = 0;
const anEmail = () => `user${(sequence += 1)}-${process.pid}@example.com`;
const anAddress = () => `198.51.100.${(sequence += 1) % 250}`;
const PASSWORD = 'correct horse battery';

async function aSignedUpMerchant(email = anEmail()) {
  const { accountId, merchant } = await signUpMerchant(getDb(), { merchantName: 'Shop', email, password: PASSWORD, clientAddress: anAddress(), now: new Date() });
  return { accountId, merchant, email };
}

describe('sign-up', () => {
  it('creates a merchant with order permission off, an AppSecret, and a merchant account with an argon2 hash', async () => {
    const { accountId, merchant, email } = await aSignedUpMerchant();
    const [row] = await getDb().select().from(merchants).where(eq(merchants.id, merchant.id));
    expect(row).toMatchObject({ orderPermission: false, name: 'Shop' });
    expect(row!.appSecretEncrypted).toMatch(/^v1\./);
    const [account] = await getDb().select().from(accounts).where(eq(accounts.id, accountId));
    expect(account).toMatchObject({ email, role: 'merchant', merchantId: merchant.id, sessionVersion: 0 });
    expect(account!.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('refuses an email that already has an account, whatever its case, and creates no merchant', async () => {
    const { email } = await aSignedUpMerchant();
    const before = await getDb().$count(merchants);
    await expect(aSignedUpMerchant(` ${email.toUpperCase()} `)).rejects.toMatchObject({ kind: 'email_already_registered' });
    expect(await getDb().$count(merchants)).toBe(before);
  });

  it('the portal’s sign-up answers a known email (a merchant’s, an operator’s) as a new one, and changes nothing of it', async () => {
    const merchantEmail = (await aSignedUpMerchant()).email;
    const operatorEmail = anEmail();
    await createAccount(getDb(), { email: operatorEmail, password: PASSWORD, role: 'operator' });
    const before = { merchants: await getDb().$count(merchants), accounts: await getDb().select().from(accounts).orderBy(accounts.id) };
    for (const email of [merchantEmail, operatorEmail.toUpperCase()]) {
      await expect(requestSignUp(getDb(), { merchantName: 'Intruder', email, password: 'another password 1', clientAddress: anAddress(), now: new Date() })).resolves.toBeUndefined();
    }
    expect(await getDb().$count(merchants)).toBe(before.merchants);
    expect(await getDb().select().from(accounts).orderBy(accounts.id)).toEqual(before.accounts);
    expect(await getDb().$count(auditLog, eq(auditLog.subject, `account:${merchantEmail}`))).toBe(1); // account.sign_up_existing_email
    const fresh = anEmail();
    await expect(requestSignUp(getDb(), { merchantName: 'New', email: fresh, password: PASSWORD, clientAddress: anAddress(), now: new Date() })).resolves.toBeUndefined();
    expect(await getDb().$count(accounts, eq(accounts.email, fresh))).toBe(1);
  });

  it('throttles sign-ups per client address (10 per hour)', async () => {
    const now = new Date();
    for (let index = 0; index < 10; index += 1) {
      await signUpMerchant(getDb(), { merchantName: 'Shop', email: anEmail(), password: PASSWORD, clientAddress: '203.0.113.77', now });
    }
    await expect(signUpMerchant(getDb(), { merchantName: 'Shop', email: anEmail(), password: PASSWORD, clientAddress: '203.0.113.77', now })).rejects.toMatchObject({
      kind: 'too_many_attempts',
      userMessage: { key: 'accounts.signUpThrottled' },
    });
    await signUpMerchant(getDb(), { merchantName: 'Shop', email: anEmail(), password: PASSWORD, clientAddress: '203.0.113.77', now: new Date(now.getTime() + 3_600_001) });
  });
});

describe('sign-in', () => {
  it('accepts the right password (any email case) and refuses a wrong one or an unknown email alike', async () => {
    const { email, accountId } = await aSignedUpMerchant();
    const ok = await authenticateAccount(getDb(), { email: email.toUpperCase(), password: PASSWORD, clientAddress: anAddress(), now: new Date() });
    expect(ok).toMatchObject({ ok: true, account: { id: accountId, role: 'merchant', sessionVersion: 0 } });
    expect(await authenticateAccount(getDb(), { email, password: 'wrong password', clientAddress: anAddress(), now: new Date() })).toEqual({ ok: false, reason: 'invalid' });
    expect(await authenticateAccount(getDb(), { email: anEmail(), password: PASSWORD, clientAddress: anAddress(), now: new Date() })).toEqual({ ok: false, reason: 'invalid' });
  });

  it('throttles an address after 5 failures on an account, but the owner signs in from another address', async () => {
    const { email } = await aSignedUpMerchant();
    const now = new Date();
    const attacker = '203.0.113.50';
    for (let index = 0; index < 5; index += 1) {
      expect((await authenticateAccount(getDb(), { email, password: `guess ${index}`, clientAddress: attacker, now })).ok).toBe(false);
    }
    expect(await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: attacker, now })).toMatchObject({ ok: false, reason: 'throttled' });
    expect((await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: anAddress(), now })).ok).toBe(true);
    const later = new Date(now.getTime() + 15 * 60_000 + 1);
    expect((await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: attacker, now: later })).ok).toBe(true);
  });

  it('an account under attack from many addresses: one guess per address, and the right password still gets in from a new address', async () => {
    const operator = await createAccount(getDb(), { email: anEmail(), password: PASSWORD, role: 'operator' });
    const now = new Date();
    const attackers = Array.from({ length: 25 }, (_, index) => `192.0.2.${index + 1}`);
    for (const address of attackers) {
      expect(await authenticateAccount(getDb(), { email: operator.email, password: 'guess', clientAddress: address, now })).toEqual({ ok: false, reason: 'invalid' });
    }
    // Past 20 failures the account is under attack: an address that has guessed once gets no second guess.
    expect(await authenticateAccount(getDb(), { email: operator.email, password: 'guess again', clientAddress: attackers[0]!, now })).toMatchObject({
      ok: false,
      reason: 'throttled',
    });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await authenticateAccount(getDb(), { email: operator.email, password: PASSWORD, clientAddress: `198.18.0.${attempt + 1}`, now })).ok).toBe(true);
    }
  });

  it('a success clears the account count, so failures spread over time do not lock the owner out', async () => {
    const { email } = await aSignedUpMerchant();
    const now = new Date();
    for (let round = 0; round < 3; round += 1) {
      for (let index = 0; index < 4; index += 1) await authenticateAccount(getDb(), { email, password: 'nope', clientAddress: anAddress(), now });
      expect((await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: anAddress(), now })).ok).toBe(true);
    }
  });

  it('throttles a client address after 30 failures in 15 minutes, across accounts', async () => {
    const address = '192.0.2.200';
    const now = new Date();
    for (let index = 0; index < 30; index += 1) {
      await authenticateAccount(getDb(), { email: anEmail(), password: 'nope', clientAddress: address, now });
    }
    const { email } = await aSignedUpMerchant();
    expect(await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: address, now })).toMatchObject({ ok: false, reason: 'throttled' });
    expect((await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: anAddress(), now })).ok).toBe(true);
  });

  it('counts concurrent guesses before checking them: no more than the limit get a password check', async () => {
    const { email } = await aSignedUpMerchant();
    const now = new Date();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, index) => authenticateAccount(getDb(), { email, password: `guess ${index}`, clientAddress: '203.0.113.90', now })),
    );
    expect(results.filter((result) => !result.ok && result.reason === 'invalid')).toHaveLength(5);
  });
});

describe('sign-in throttling by network, and the daily cap per account', () => {
  it('counts an IPv6 /64 as one client: a sixth guess from a new address of the same /64 is refused', async () => {
    const { email } = await aSignedUpMerchant();
    const now = new Date();
    for (let index = 1; index <= 5; index += 1) {
      expect(await authenticateAccount(getDb(), { email, password: `guess ${index}`, clientAddress: `2001:db8:77:1::${index.toString(16)}`, now })).toEqual({ ok: false, reason: 'invalid' });
    }
    expect(await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: '2001:db8:77:1:ffff:ffff:ffff:ffff', now })).toMatchObject({ ok: false, reason: 'throttled' });
    // The next /64 is another subscriber's network, and the owner there gets in.
    expect((await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: '2001:db8:77:2::1', now })).ok).toBe(true);
  });

  it('counts an IPv4 client alike whether the socket reports it as IPv4 or as IPv4-mapped IPv6', async () => {
    const { email } = await aSignedUpMerchant();
    const now = new Date();
    for (let index = 0; index < 5; index += 1) {
      await authenticateAccount(getDb(), { email, password: 'nope', clientAddress: index % 2 ? '203.0.113.61' : '::ffff:203.0.113.61', now });
    }
    expect(await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: '::ffff:cb00:713d', now })).toMatchObject({ ok: false, reason: 'throttled' });
  });

  it('groups the per-client limit across accounts by /64 too', async () => {
    const now = new Date();
    for (let index = 0; index < 30; index += 1) {
      await authenticateAccount(getDb(), { email: anEmail(), password: 'nope', clientAddress: `2001:db8:99:1:${index.toString(16)}::1`, now });
    }
    const { email } = await aSignedUpMerchant();
    expect(await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: '2001:db8:99:1:abcd::9', now })).toMatchObject({ ok: false, reason: 'throttled' });
  });

  it('a burst from one network (the probe: 101 posts in under a second) locks nothing: the right password from another network gets in at once', async () => {
    const { email } = await aSignedUpMerchant();
    const now = new Date();
    const results = [];
    for (let index = 0; index < 101; index += 1) results.push(await authenticateAccount(getDb(), { email, password: `guess ${index}`, clientAddress: '203.0.113.140', now }));
    expect(results.filter((result) => !result.ok && result.reason === 'invalid')).toHaveLength(5);
    expect(results.filter((result) => !result.ok && result.reason === 'throttled')).toHaveLength(96);
    // Only the five that reached a password check count against the account.
    expect(await signInFailuresOf(getDb(), email, now)).toEqual({ total: 5, newNetworksLockedUntil: null, networks: [{ network: '203.0.113.140', failures: 5, lockedUntil: null }] });
    expect((await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: '198.51.100.141', now })).ok).toBe(true);
    expect(await listSignInLockouts(getDb(), now, 1000)).not.toContainEqual(expect.objectContaining({ email }));
  });

  it(`past ${ACCOUNT_DAILY_CAP} failed checks in 24 hours from any number of networks, a network the owner never signed in from is refused, right password included, while a known one gets in; an operator unlocks`, { timeout: 120_000 }, async () => {
    const { email, accountId } = await aSignedUpMerchant();
    const now = new Date();
    const office = '198.51.100.210';
    expect((await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: office, now })).ok).toBe(true);
    for (let index = 0; index < ACCOUNT_DAILY_CAP; index += 1) {
      const network = `2001:db8:${(0x1000 + index).toString(16)}:1::1`;
      expect(await authenticateAccount(getDb(), { email, password: `guess ${index}`, clientAddress: network, now }), network).toEqual({ ok: false, reason: 'invalid' });
    }
    const locked = await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: '198.51.100.200', now });
    expect(locked).toEqual({ ok: false, reason: 'locked', retryAt: new Date(now.getTime() + 24 * 60 * 60_000) });
    expect((await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: office, now })).ok).toBe(true);
    const lockouts = await listSignInLockouts(getDb(), now, 1000);
    expect(lockouts.find((lockout) => lockout.email === email)).toMatchObject({ accountId, role: 'merchant', total: ACCOUNT_DAILY_CAP, newNetworksLockedUntil: locked.ok ? null : locked.retryAt });
    const lockAudits = await getDb().select().from(auditLog).where(and(eq(auditLog.subject, `account:${accountId}`), eq(auditLog.action, 'account.sign_in_locked')));
    expect(lockAudits).toHaveLength(1);
    expect(lockAudits[0]!.after).toEqual({ scope: 'new_networks', network: `2001:db8:${(0x1000 + ACCOUNT_DAILY_CAP - 1).toString(16)}:1::/64` });

    const unlock = await runAdminJson(['account', 'unlock', '--email', email.toUpperCase(), '--reason', 'owner called']);
    expect(unlock).toMatchObject({ accountId, email });
    expect((await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: '198.51.100.200', now })).ok).toBe(true);
    const [entry] = await getDb().select().from(auditLog).where(and(eq(auditLog.subject, `account:${accountId}`), eq(auditLog.action, 'account.unlock')));
    expect(entry).toMatchObject({ action: 'account.unlock', reason: 'owner called' });
    expect(await listSignInLockouts(getDb(), now, 1000)).not.toContainEqual(expect.objectContaining({ email }));
  });

  it(`${NETWORK_DAILY_CAP} failed checks from one network in a day lock the account for that network alone`, { timeout: 120_000 }, async () => {
    const { email, accountId } = await aSignedUpMerchant();
    const start = new Date();
    const guesser = '203.0.113.150';
    // Five guesses per quarter of an hour, as the per-client limit allows: the last one comes after an hour.
    for (let index = 0; index < NETWORK_DAILY_CAP; index += 1) {
      const now = new Date(start.getTime() + Math.floor(index / PAIR_LIMIT) * (15 * 60_000 + 1));
      expect(await authenticateAccount(getDb(), { email, password: `guess ${index}`, clientAddress: guesser, now }), `guess ${index}`).toEqual({ ok: false, reason: 'invalid' });
    }
    const later = new Date(start.getTime() + 2 * 60 * 60_000);
    expect(await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: guesser, now: later })).toEqual({ ok: false, reason: 'locked', retryAt: new Date(start.getTime() + 24 * 60 * 60_000) });
    expect((await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: '198.51.100.151', now: later })).ok).toBe(true);
    const failures = await signInFailuresOf(getDb(), email, later);
    expect(failures.networks).toEqual([{ network: guesser, failures: NETWORK_DAILY_CAP, lockedUntil: new Date(start.getTime() + 24 * 60 * 60_000) }]);
    expect(failures.newNetworksLockedUntil).toBeNull();
    const [lockAudit] = await getDb().select().from(auditLog).where(and(eq(auditLog.subject, `account:${accountId}`), eq(auditLog.action, 'account.sign_in_locked')));
    expect(lockAudit).toMatchObject({ actor: `network:${guesser}`, after: { scope: 'network', network: guesser } });
    const nextDay = new Date(start.getTime() + 24 * 60 * 60_000 + 1);
    expect((await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: guesser, now: nextDay })).ok).toBe(true);
  });

  it('unlocks by itself when the 24 hours end, and an operator cannot unlock an account that does not exist', async () => {
    const { email } = await aSignedUpMerchant();
    const now = new Date();
    for (let index = 0; index <= ACCOUNT_DAILY_CAP; index += 1) {
      await authenticateAccount(getDb(), { email, password: 'nope', clientAddress: `2001:db8:${(0x5000 + index).toString(16)}::1`, now });
    }
    expect(await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: '198.51.100.201', now })).toMatchObject({ ok: false, reason: 'locked' });
    const nextDay = new Date(now.getTime() + 24 * 60 * 60_000 + 1);
    expect((await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: '198.51.100.201', now: nextDay })).ok).toBe(true);
    const missing = await runAdmin(['account', 'unlock', '--email', 'nobody@example.com']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('account nobody@example.com not found');
  });
});

describe('sessions and passwords', () => {
  it('a session token maps to its merchant while its session is live; operators, ended sessions and tokens from before a password change do not', async () => {
    const { accountId, merchant, email } = await aSignedUpMerchant();
    const now = new Date();
    const open = (sessionVersion: number, at = now) => openAccountSession(getDb(), { accountId, sessionVersion, userAgent: 'test', clientAddress: anAddress(), now: at });
    const sessionId = await open(0);
    expect(await loadMerchantContext(getDb(), { accountId, sessionVersion: 0, sessionId }, now)).toMatchObject({ accountId, email, merchantId: merchant.id, appId: merchant.appId });
    expect(await loadMerchantContext(getDb(), { accountId, sessionVersion: 0, sessionId: 'no such session' }, now)).toBeUndefined();
    expect(await loadMerchantContext(getDb(), { accountId, sessionVersion: 0, sessionId: '' }, now)).toBeUndefined();
    // Unused for the idle limit: over.
    const idle = await open(0, new Date(now.getTime() - SESSION_IDLE_LIMIT_MS - 1000));
    expect(await loadMerchantContext(getDb(), { accountId, sessionVersion: 0, sessionId: idle }, now)).toBeUndefined();

    await expect(changePassword(getDb(), { accountId, currentPassword: 'wrong', newPassword: 'another good password', now: new Date() })).rejects.toMatchObject({ kind: 'password_rejected' });
    const { sessionVersion } = await changePassword(getDb(), { accountId, currentPassword: PASSWORD, newPassword: 'another good password', now: new Date() });
    expect(sessionVersion).toBe(1);
    expect(await loadMerchantContext(getDb(), { accountId, sessionVersion: 0, sessionId }, now)).toBeUndefined();
    // A token that claims the new version for an old session is refused too: the row keeps the version it opened with.
    expect(await loadMerchantContext(getDb(), { accountId, sessionVersion: 1, sessionId }, now)).toBeUndefined();
    const after = await open(1);
    expect(await loadMerchantContext(getDb(), { accountId, sessionVersion: 1, sessionId: after }, now)).toBeDefined();
    expect((await authenticateAccount(getDb(), { email, password: PASSWORD, clientAddress: anAddress(), now: new Date() })).ok).toBe(false);
    expect((await authenticateAccount(getDb(), { email, password: 'another good password', clientAddress: anAddress(), now: new Date() })).ok).toBe(true);

    const operator = await createAccount(getDb(), { email: anEmail(), password: PASSWORD, role: 'operator' });
    const operatorSession = await openAccountSession(getDb(), { accountId: operator.id, sessionVersion: 0, userAgent: 'test', clientAddress: anAddress(), now });
    expect(await loadMerchantContext(getDb(), { accountId: operator.id, sessionVersion: 0, sessionId: operatorSession }, now)).toBeUndefined();
    // Another account's session id is not this account's.
    expect(await loadMerchantContext(getDb(), { accountId, sessionVersion: 1, sessionId: operatorSession }, now)).toBeUndefined();
  });
});

describe('configuration', () => {
  it('has no built-in session secret in any mode, and refuses a short one', () => {
    expect(() => portalAuthSecret({ NODE_ENV: 'development' } as NodeJS.ProcessEnv)).toThrow(/NEXTAUTH_SECRET is not set/);
    expect(() => portalAuthSecret({ NODE_ENV: 'production' } as NodeJS.ProcessEnv)).toThrow(/NEXTAUTH_SECRET is not set/);
    expect(() => portalAuthSecret({ NODE_ENV: 'production', NEXTAUTH_SECRET: 'short' } as NodeJS.ProcessEnv)).toThrow(/at least 32/);
    expect(portalAuthSecret({ NODE_ENV: 'production', NEXTAUTH_SECRET: 'x'.repeat(40) } as NodeJS.ProcessEnv)).toBe('x'.repeat(40));
  });

  it('counts the address the service stamped, the last hop', () => {
    expect(clientAddressFrom('10.0.0.1')).toBe('10.0.0.1');
    expect(clientAddressFrom('1.2.3.4, 10.0.0.1')).toBe('10.0.0.1');
    expect(clientAddressFrom(undefined)).toBe('unknown');
  });
});
