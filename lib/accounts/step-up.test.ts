import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { authenticatorCode } from '../../test/totp-code';
import { getDb } from '../db/client';
import { accountSessions, auditLog } from '../db/schema';
import { openAccountSession } from './account-sessions';
import { createAccount } from './accounts';
import { authenticateAccount } from './authenticate-account';
import { confirmStepUp, STEP_UP_WINDOW_MS, stepUpAsk } from './step-up';
import { confirmTotpEnrolment, startTotpEnrolment } from './totp-factor';

const PASSWORD = 'correct horse battery';
const STEP = 30_000;
let sequence = 0;
const anEmail = () => `step-up${(sequence += 1)}-${process.pid}-${Date.now()}@example.com`;
const stepStart = () => new Date(Math.floor(Date.now() / STEP) * STEP);
const later = (from: Date, ms: number) => new Date(from.getTime() + ms);

async function anAccount(options: { withApp: boolean; now: Date }) {
  const account = await createAccount(getDb(), { email: anEmail(), password: PASSWORD, role: 'merchant' });
  if (!options.withApp) return { account, secret: undefined, recoveryCodes: [] as string[] };
  const { secret } = await startTotpEnrolment(getDb(), { accountId: account.id, now: options.now });
  const { recoveryCodes } = await confirmTotpEnrolment(getDb(), { accountId: account.id, code: authenticatorCode(secret, options.now), now: options.now });
  return { account, secret, recoveryCodes };
}

/** A session as sign-in opens it: the sign-in's own answer to the second factor opens the window. */
async function aSession(accountId: number, now: Date, secondFactorAnswered: boolean) {
  return openAccountSession(getDb(), { accountId, sessionVersion: 0, userAgent: 'test', clientAddress: '192.0.2.9', now, secondFactorAnswered });
}

describe('the step-up before a sensitive action', () => {
  it('asks an account without an authenticator app for its password, as before: a wrong one refused on the field', async () => {
    const now = stepStart();
    const { account } = await anAccount({ withApp: false, now });
    const session = { accountId: account.id, sessionId: await aSession(account.id, now, false) };
    expect(await stepUpAsk(getDb(), session, now)).toBe('password');
    await expect(confirmStepUp(getDb(), { ...session, answer: 'not the password', now })).rejects.toMatchObject({ kind: 'password_rejected', fieldErrors: { password: { key: 'accounts.passwordRejectedField' } } });
    await expect(confirmStepUp(getDb(), { ...session, answer: PASSWORD, now })).resolves.toBeUndefined();
    // A password is no window: the next action asks it again.
    expect(await stepUpAsk(getDb(), session, now)).toBe('password');
  });

  it('lets a session signed in with the app act for 10 minutes without a code, then asks for the code; the password is no answer', async () => {
    const now = stepStart();
    const { account, secret } = await anAccount({ withApp: true, now });
    const signedIn = later(now, STEP);
    const result = await authenticateAccount(getDb(), { email: account.email, password: PASSWORD, secondFactor: authenticatorCode(secret!, signedIn), clientAddress: '192.0.2.9', now: signedIn });
    expect(result).toMatchObject({ ok: true, account: { secondFactorAnswered: true } });
    const session = { accountId: account.id, sessionId: await aSession(account.id, signedIn, true) };
    expect(await stepUpAsk(getDb(), session, signedIn)).toBe('none');
    await expect(confirmStepUp(getDb(), { ...session, answer: '', now: later(signedIn, STEP_UP_WINDOW_MS - 1000) })).resolves.toBeUndefined();
    // Past the window: the code is asked; nothing, the password or a wrong code is refused on the field.
    const expired = later(signedIn, STEP_UP_WINDOW_MS);
    expect(await stepUpAsk(getDb(), session, expired)).toBe('code');
    await expect(confirmStepUp(getDb(), { ...session, answer: '', now: expired })).rejects.toMatchObject({ kind: 'password_rejected', fieldErrors: { password: { key: 'accounts.stepUpCodeMissingField' } } });
    await expect(confirmStepUp(getDb(), { ...session, answer: PASSWORD, now: expired })).rejects.toMatchObject({ fieldErrors: { password: { key: 'accounts.secondFactorWrongField' } } });
    // The right code opens a new window, for this session only.
    await confirmStepUp(getDb(), { ...session, answer: authenticatorCode(secret!, expired), now: expired });
    expect(await stepUpAsk(getDb(), session, later(expired, 60_000))).toBe('none');
    const other = { accountId: account.id, sessionId: await aSession(account.id, expired, false) };
    expect(await stepUpAsk(getDb(), other, later(expired, 60_000))).toBe('code');
    // A session id of another account opens nothing.
    const stranger = await anAccount({ withApp: true, now });
    expect(await stepUpAsk(getDb(), { accountId: stranger.account.id, sessionId: session.sessionId }, later(expired, 60_000))).toBe('code');
  });

  it('takes each code once: the same code replayed in another session is refused; a recovery code works once', async () => {
    const now = stepStart();
    const { account, secret, recoveryCodes } = await anAccount({ withApp: true, now });
    const at = later(now, STEP);
    const first = { accountId: account.id, sessionId: await aSession(account.id, at, false) };
    const second = { accountId: account.id, sessionId: await aSession(account.id, at, false) };
    const code = authenticatorCode(secret!, at);
    await confirmStepUp(getDb(), { ...first, answer: code, now: at });
    await expect(confirmStepUp(getDb(), { ...second, answer: code, now: at })).rejects.toMatchObject({ kind: 'password_rejected' });
    await confirmStepUp(getDb(), { ...second, answer: recoveryCodes[0]!, now: at });
    const third = { accountId: account.id, sessionId: await aSession(account.id, at, false) };
    await expect(confirmStepUp(getDb(), { ...third, answer: recoveryCodes[0]!, now: at })).rejects.toMatchObject({ kind: 'password_rejected' });
    expect(await getDb().$count(auditLog, and(eq(auditLog.subject, `account:${account.id}`), eq(auditLog.action, 'account.recovery_code_use')))).toBe(1);
  });

  it('counts wrong codes in the account\'s re-entry throttle: after five, even the right code waits', async () => {
    const now = stepStart();
    const { account, secret } = await anAccount({ withApp: true, now });
    const at = later(now, STEP);
    const session = { accountId: account.id, sessionId: await aSession(account.id, at, false) };
    const wrong = String((Number(authenticatorCode(secret!, at)) + 500_000) % 1_000_000).padStart(6, '0');
    for (let attempt = 0; attempt < 5; attempt += 1) await expect(confirmStepUp(getDb(), { ...session, answer: wrong, now: at })).rejects.toMatchObject({ kind: 'password_rejected' });
    await expect(confirmStepUp(getDb(), { ...session, answer: authenticatorCode(secret!, at), now: at })).rejects.toMatchObject({ kind: 'too_many_attempts' });
    const [row] = await getDb().select({ at: accountSessions.secondFactorAt }).from(accountSessions).where(eq(accountSessions.id, session.sessionId));
    expect(row!.at).toBeNull();
  });

  it('without the session (a caller outside the pages) always asks for the code', async () => {
    const now = stepStart();
    const { account } = await anAccount({ withApp: true, now });
    await aSession(account.id, now, true);
    expect(await stepUpAsk(getDb(), { accountId: account.id }, now)).toBe('code');
  });
});
