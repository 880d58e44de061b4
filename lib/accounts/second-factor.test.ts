import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { authenticatorCode } from '../../test/totp-code';
import { getDb } from '../db/client';
import { accountTotpFactors, accounts, auditLog } from '../db/schema';
import { createAccount } from './accounts';
import { authenticateAccount } from './authenticate-account';
import { ACCOUNT_DAILY_CAP, PAIR_LIMIT } from './sign-in-throttle';
import { removeTotpFactor } from './remove-totp-factor';
import { confirmTotpEnrolment, RECOVERY_CODE_COUNT, secondFactorState, startTotpEnrolment } from './totp-factor';

const PASSWORD = 'correct horse battery';
let sequence = 0;
const anEmail = () => `factor${(sequence += 1)}-${process.pid}-${Date.now()}@example.com`;
const STEP = 30_000;
/** The start of a 30-second step, so that "the next step" is unambiguous in each test. */
const stepStart = () => new Date(Math.floor(Date.now() / STEP) * STEP);

async function anEnrolledAccount(now = stepStart()) {
  const account = await createAccount(getDb(), { email: anEmail(), password: PASSWORD, role: 'operator' });
  const { secret, uri } = await startTotpEnrolment(getDb(), { accountId: account.id, now });
  const { recoveryCodes } = await confirmTotpEnrolment(getDb(), { accountId: account.id, code: authenticatorCode(secret, now), now });
  return { account, secret, uri, recoveryCodes };
}

const signIn = (email: string, input: { secondFactor?: string; clientAddress?: string; now: Date; password?: string }) =>
  authenticateAccount(getDb(), { email, password: input.password ?? PASSWORD, secondFactor: input.secondFactor, clientAddress: input.clientAddress ?? '198.51.100.70', now: input.now });

describe('an authenticator app as a second factor', () => {
  it('enrols: an otpauth URI for the app, the secret encrypted at rest, a wrong code refused on its field, the right one gives ten recovery codes once', async () => {
    const account = await createAccount(getDb(), { email: anEmail(), password: PASSWORD, role: 'merchant' });
    const now = stepStart();
    const { secret, uri } = await startTotpEnrolment(getDb(), { accountId: account.id, now });
    expect(uri).toMatch(new RegExp(`^otpauth://totp/.+\\?.*secret=${secret}`));
    expect(uri).toContain('algorithm=SHA1&digits=6&period=30');
    const [row] = await getDb().select().from(accountTotpFactors).where(eq(accountTotpFactors.accountId, account.id));
    expect(row!.secretEncrypted).toMatch(/^v1\./);
    expect(row!.secretEncrypted).not.toContain(secret);
    expect(await secondFactorState(getDb(), account.id)).toEqual({ enrolled: false, confirmedAt: null, recoveryCodesLeft: 0 });
    const wrong = String((Number(authenticatorCode(secret, now)) + 1) % 1_000_000).padStart(6, '0');
    await expect(confirmTotpEnrolment(getDb(), { accountId: account.id, code: wrong, now })).rejects.toMatchObject({ kind: 'invalid_parameter', fieldErrors: { code: { key: 'accounts.secondFactorWrongField' } } });
    await expect(confirmTotpEnrolment(getDb(), { accountId: account.id, code: 'abcdef', now })).rejects.toMatchObject({ kind: 'invalid_parameter' });
    // Until confirmed, the password alone still signs in.
    expect((await signIn(account.email, { now })).ok).toBe(true);
    const { recoveryCodes } = await confirmTotpEnrolment(getDb(), { accountId: account.id, code: authenticatorCode(secret, now), now });
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of recoveryCodes) expect(code).toMatch(/^[A-HJKMNP-Z2-9]{5}-[A-HJKMNP-Z2-9]{5}$/);
    expect(await secondFactorState(getDb(), account.id)).toMatchObject({ enrolled: true, recoveryCodesLeft: RECOVERY_CODE_COUNT });
    await expect(startTotpEnrolment(getDb(), { accountId: account.id, now })).rejects.toMatchObject({ kind: 'action_refused' });
    expect(await getDb().$count(auditLog, and(eq(auditLog.subject, `account:${account.id}`), eq(auditLog.action, 'account.second_factor_enrol')))).toBe(1);
  });

  it('sign-in asks for the code after the right password (and only then), takes the present code once, and refuses it replayed', async () => {
    const { account, secret } = await anEnrolledAccount();
    const next = new Date(stepStart().getTime() + STEP);
    expect(await signIn(account.email, { now: next, password: 'wrong password' })).toEqual({ ok: false, reason: 'invalid' });
    expect(await signIn(account.email, { now: next })).toEqual({ ok: false, reason: 'second_factor_required' });
    const code = authenticatorCode(secret, next);
    expect(await signIn(account.email, { now: next, secondFactor: code })).toMatchObject({ ok: true, account: { id: account.id } });
    // The same code again, within its window: refused, from this client or any other.
    expect(await signIn(account.email, { now: next, secondFactor: code })).toEqual({ ok: false, reason: 'second_factor_invalid' });
    expect(await signIn(account.email, { now: new Date(next.getTime() + 20_000), secondFactor: code, clientAddress: '198.51.100.71' })).toEqual({ ok: false, reason: 'second_factor_invalid' });
    // An older step's code, though inside the drift window, is older than the one used: refused too.
    expect(await signIn(account.email, { now: next, secondFactor: authenticatorCode(secret, new Date(next.getTime() - STEP)) })).toEqual({ ok: false, reason: 'second_factor_invalid' });
    const later = new Date(next.getTime() + STEP);
    expect((await signIn(account.email, { now: later, secondFactor: authenticatorCode(secret, later) })).ok).toBe(true);
  });

  it('wrong codes count in the same throttle as wrong passwords, and asking for the code step again resets nothing', async () => {
    const { account } = await anEnrolledAccount();
    const now = new Date(stepStart().getTime() + STEP);
    const client = '203.0.113.170';
    for (let index = 0; index < PAIR_LIMIT; index += 1) {
      expect(await signIn(account.email, { now, clientAddress: client })).toEqual({ ok: false, reason: 'second_factor_required' });
      expect(await signIn(account.email, { now, clientAddress: client, secondFactor: `12345${index}` })).toEqual({ ok: false, reason: 'second_factor_invalid' });
    }
    expect(await signIn(account.email, { now, clientAddress: client })).toMatchObject({ ok: false, reason: 'throttled' });
  });

  it('a recovery code signs in once in place of the app’s code (audited), and is then used up', async () => {
    const { account, recoveryCodes } = await anEnrolledAccount();
    const now = new Date(stepStart().getTime() + STEP);
    const [first, second] = recoveryCodes;
    expect((await signIn(account.email, { now, secondFactor: first!.toLowerCase().replace('-', ' ') })).ok).toBe(true);
    expect(await signIn(account.email, { now, secondFactor: first! })).toEqual({ ok: false, reason: 'second_factor_invalid' });
    expect((await signIn(account.email, { now, secondFactor: second! })).ok).toBe(true);
    expect(await secondFactorState(getDb(), account.id)).toMatchObject({ recoveryCodesLeft: RECOVERY_CODE_COUNT - 2 });
    expect(await getDb().$count(auditLog, and(eq(auditLog.subject, `account:${account.id}`), eq(auditLog.action, 'account.recovery_code_use')))).toBe(2);
  });

  it('an account locked for new networks lets in the password with the second factor, and answers any other pair as locked', { timeout: 120_000 }, async () => {
    const { account, secret } = await anEnrolledAccount();
    const now = new Date(stepStart().getTime() + STEP);
    for (let index = 0; index < ACCOUNT_DAILY_CAP; index += 1) {
      expect(await signIn(account.email, { now, password: `guess ${index}`, clientAddress: `2001:db8:${(0x7000 + index).toString(16)}::1` })).toEqual({ ok: false, reason: 'invalid' });
    }
    // Under attack, each network gets one attempt on the account: every pair below comes from a new one.
    expect(await signIn(account.email, { now, clientAddress: '198.51.100.77' })).toMatchObject({ ok: false, reason: 'locked' });
    expect(await signIn(account.email, { now, clientAddress: '198.51.100.78', secondFactor: '999999' })).toMatchObject({ ok: false, reason: 'locked' });
    expect(await signIn(account.email, { now, clientAddress: '198.51.100.79', password: 'a guess', secondFactor: authenticatorCode(secret, now) })).toMatchObject({ ok: false, reason: 'locked' });
    const later = new Date(now.getTime() + STEP);
    expect((await signIn(account.email, { now: later, clientAddress: '198.51.100.80', secondFactor: authenticatorCode(secret, later) })).ok).toBe(true);
  });

  it('removing the factor asks for the app\'s code (the step-up: lib/accounts/step-up.ts) and ends the other sessions; then the password alone signs in', async () => {
    const { account, secret } = await anEnrolledAccount();
    const now = new Date(stepStart().getTime() + STEP);
    await expect(removeTotpFactor(getDb(), { accountId: account.id, answer: PASSWORD, now })).rejects.toMatchObject({ kind: 'password_rejected', fieldErrors: { password: { key: 'accounts.secondFactorWrongField' } } });
    expect(await secondFactorState(getDb(), account.id)).toMatchObject({ enrolled: true });
    const [before] = await getDb().select({ sessionVersion: accounts.sessionVersion }).from(accounts).where(eq(accounts.id, account.id));
    const { sessionVersion } = await removeTotpFactor(getDb(), { accountId: account.id, answer: authenticatorCode(secret, now), now });
    expect(sessionVersion).toBe(before!.sessionVersion + 1);
    expect(await secondFactorState(getDb(), account.id)).toEqual({ enrolled: false, confirmedAt: null, recoveryCodesLeft: 0 });
    expect((await signIn(account.email, { now })).ok).toBe(true);
    expect(await getDb().$count(auditLog, and(eq(auditLog.subject, `account:${account.id}`), eq(auditLog.action, 'account.second_factor_remove')))).toBe(1);
  });
});
