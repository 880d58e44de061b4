import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { authenticatorCode } from '../../test/totp-code';
import { runAdmin, runAdminJson } from '../cli/run-admin-for-tests';
import { getDb } from '../db/client';
import { accountRecoveryCodes, accounts, auditLog } from '../db/schema';
import { createAccount } from './accounts';
import { authenticateAccount } from './authenticate-account';
import { pendingSecondFactorReset } from './reset-second-factor';
import { confirmTotpEnrolment, secondFactorState, startTotpEnrolment } from './totp-factor';

const PASSWORD = 'correct horse battery';
let sequence = 0;
const anEmail = () => `reset${(sequence += 1)}-${process.pid}-${Date.now()}@example.com`;
const STEP = 30_000;

describe("an operator's reset of a lost authenticator (admin account reset-factor)", () => {
  it('removes the factor and its recovery codes, ends the sessions, audits the reason; the owner is told until a new app is set up', async () => {
    const account = await createAccount(getDb(), { email: anEmail(), password: PASSWORD, role: 'merchant' });
    const now = new Date(Math.floor(Date.now() / STEP) * STEP);
    const { secret } = await startTotpEnrolment(getDb(), { accountId: account.id, now });
    await confirmTotpEnrolment(getDb(), { accountId: account.id, code: authenticatorCode(secret, now), now });
    const signIn = () => authenticateAccount(getDb(), { email: account.email, password: PASSWORD, clientAddress: '198.51.100.90', now: new Date() });
    expect(await signIn()).toMatchObject({ ok: false, reason: 'second_factor_required' });

    const reset = await runAdminJson(['account', 'reset-factor', '--email', account.email.toUpperCase(), '--reason', 'owner came to the office with ID'], { env: { ...process.env, OPERATOR: 'ops:alice' } });
    expect(reset).toEqual({ accountId: account.id, email: account.email });
    expect(await secondFactorState(getDb(), account.id)).toEqual({ enrolled: false, confirmedAt: null, recoveryCodesLeft: 0 });
    expect(await getDb().$count(accountRecoveryCodes, eq(accountRecoveryCodes.accountId, account.id))).toBe(0);
    const [row] = await getDb().select({ sessionVersion: accounts.sessionVersion }).from(accounts).where(eq(accounts.id, account.id));
    expect(row!.sessionVersion).toBe(1);
    const [entry] = await getDb().select().from(auditLog).where(and(eq(auditLog.subject, `account:${account.id}`), eq(auditLog.action, 'account.second_factor_reset')));
    expect(entry).toMatchObject({ actor: 'ops:alice', reason: 'owner came to the office with ID' });
    expect(await pendingSecondFactorReset(getDb(), account.id)).toEqual({ at: expect.any(Date), reason: 'owner came to the office with ID' });

    // The password alone signs in now; a new app set up answers the reset.
    expect((await signIn()).ok).toBe(true);
    const later = new Date(now.getTime() + STEP);
    const again = await startTotpEnrolment(getDb(), { accountId: account.id, now: later });
    await confirmTotpEnrolment(getDb(), { accountId: account.id, code: authenticatorCode(again.secret, later), now: later });
    expect(await pendingSecondFactorReset(getDb(), account.id)).toBeUndefined();
  });

  it('refuses without a reason, for an unknown account, and for an account without a factor, changing nothing', async () => {
    const account = await createAccount(getDb(), { email: anEmail(), password: PASSWORD, role: 'operator' });
    const noReason = await runAdmin(['account', 'reset-factor', '--email', account.email]);
    expect(noReason.exitCode).not.toBe(0);
    expect(noReason.stderr).toContain('--reason');
    const blankReason = await runAdmin(['account', 'reset-factor', '--email', account.email, '--reason', '  ']);
    expect(blankReason.exitCode).not.toBe(0);
    expect(blankReason.stderr).toContain('--reason must not be empty');
    const unknown = await runAdmin(['account', 'reset-factor', '--email', 'nobody-here@example.com', '--reason', 'x']);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('account nobody-here@example.com not found');
    const without = await runAdmin(['account', 'reset-factor', '--email', account.email, '--reason', 'lost phone']);
    expect(without.exitCode).toBe(1);
    expect(without.stderr).toContain('has no second factor (authenticator app or passkey) set up');
    const [row] = await getDb().select({ sessionVersion: accounts.sessionVersion, resetAt: accounts.secondFactorResetAt }).from(accounts).where(eq(accounts.id, account.id));
    expect(row).toEqual({ sessionVersion: 0, resetAt: null });
  });
});
