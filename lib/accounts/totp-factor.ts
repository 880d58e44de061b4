import { createHash, randomInt } from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Database } from '../db/client';
import { accountPasskeys, accountRecoveryCodes, accountTotpFactors, accounts } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { decryptSecret, encryptSecret } from '../crypto/secret-box';
import { DomainError, actionRefused } from '../errors/domain-error';
import { domainMessage } from '../errors/domain-message';
import { withReentryAttempt } from './reentry-attempt';

/**
 * A second factor for sign-in: an authenticator app (TOTP, RFC 6238: SHA-1, 6 digits, 30-second steps, what every
 * authenticator app reads from the QR code), and ten one-time recovery codes for the day the phone is lost. A code
 * is accepted for the step before and after the present one (clock drift) and never twice: the last accepted step
 * is kept, and only a later one is accepted (a code seen over a shoulder or replayed from a proxy log is refused).
 */
const ISSUER = 'Payment back office';
const PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
// Recovery codes: 10 characters of an alphabet without look-alikes (0/O, 1/I/L), about 50 bits each.
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

const authenticator = (secretBase32: string, label: string) =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });

const wrongCode = () =>
  new DomainError('invalid_parameter', {
    message: 'code: not the current code of the authenticator app',
    userMessage: domainMessage('accounts.secondFactorWrong'),
    fieldErrors: { code: domainMessage('accounts.secondFactorWrongField') },
  });

function newRecoveryCode(): string {
  const characters = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]!);
  return `${characters.slice(0, 5).join('')}-${characters.slice(5).join('')}`;
}

const normalisedRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();
const recoveryCodeHash = (code: string) => createHash('sha256').update(normalisedRecoveryCode(code)).digest('hex');

/** The time step a code belongs to (the present one, or one either side), or undefined when it is none of them. */
function acceptedStep(secretBase32: string, code: string, now: Date): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = authenticator(secretBase32, '').validate({ token: code, timestamp: now.getTime(), window: 1 });
  return delta === null ? undefined : Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

async function factorOf(db: Database, accountId: number) {
  const [row] = await db.select().from(accountTotpFactors).where(eq(accountTotpFactors.accountId, accountId)).limit(1);
  return row;
}

export async function hasSecondFactor(db: Database, accountId: number): Promise<boolean> {
  return (await factorOf(db, accountId))?.confirmedAt != null;
}

export interface SecondFactorState {
  enrolled: boolean;
  confirmedAt: Date | null;
  recoveryCodesLeft: number;
}

export async function secondFactorState(db: Database, accountId: number): Promise<SecondFactorState> {
  const factor = await factorOf(db, accountId);
  const left = await db.$count(accountRecoveryCodes, and(eq(accountRecoveryCodes.accountId, accountId), isNull(accountRecoveryCodes.usedAt)));
  // The recovery codes answer for every second factor: an account with passkeys alone has them too.
  return { enrolled: factor?.confirmedAt != null, confirmedAt: factor?.confirmedAt ?? null, recoveryCodesLeft: left };
}

/** A new secret for the account's authenticator, not in force until a code from the app confirms it. */
export async function startTotpEnrolment(db: Database, input: { accountId: number; now: Date }): Promise<{ secret: string; uri: string }> {
  const [account] = await db.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, input.accountId)).limit(1);
  if (!account) throw actionRefused(`account ${input.accountId} not found`);
  if (await hasSecondFactor(db, input.accountId)) throw actionRefused('an authenticator app is already set up: remove it first', domainMessage('accounts.secondFactorAlreadySet'));
  const secret = new Secret({ size: 20 }).base32;
  await db
    .insert(accountTotpFactors)
    .values({ accountId: input.accountId, secretEncrypted: encryptSecret(secret), createdAt: input.now })
    .onConflictDoUpdate({ target: accountTotpFactors.accountId, set: { secretEncrypted: encryptSecret(secret), createdAt: input.now, confirmedAt: null, lastUsedStep: 0 } });
  return { secret, uri: authenticator(secret, account.email).toString() };
}

/** The app's first code puts the factor in force; the ten recovery codes are returned this once and kept hashed. */
export async function confirmTotpEnrolment(db: Database, input: { accountId: number; code: string; now: Date }): Promise<{ recoveryCodes: string[] }> {
  const factor = await factorOf(db, input.accountId);
  if (!factor || factor.confirmedAt) throw actionRefused('no authenticator app is being set up', domainMessage('accounts.secondFactorNotStarted'));
  // Wrong codes count against the account's re-entry throttle, as wrong passwords do.
  const step = await withReentryAttempt(db, input.accountId, input.now, async () => {
    const accepted = acceptedStep(decryptSecret(factor.secretEncrypted), input.code.replace(/\s/g, ''), input.now);
    if (accepted === undefined) throw wrongCode();
    return accepted;
  });
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    await tx.update(accountTotpFactors).set({ confirmedAt: input.now, lastUsedStep: step }).where(eq(accountTotpFactors.accountId, input.accountId));
    const recoveryCodes = await replaceRecoveryCodes(tx, input.accountId, input.now);
    await recordAudit(tx, { actor: `account:${input.accountId}`, action: 'account.second_factor_enrol', subject: `account:${input.accountId}`, after: { kind: 'totp', recoveryCodes: RECOVERY_CODE_COUNT } });
    return { recoveryCodes };
  });
}

/**
 * A second factor was just set up: ten new recovery codes replace any earlier ones (returned this once, kept hashed),
 * and an operator's reset of a lost factor is answered. In the caller's transaction.
 */
export async function replaceRecoveryCodes(tx: Database, accountId: number, now: Date): Promise<string[]> {
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.update(accounts).set({ secondFactorResetAt: null, secondFactorResetReason: null }).where(eq(accounts.id, accountId));
  await tx.delete(accountRecoveryCodes).where(eq(accountRecoveryCodes.accountId, accountId));
  await tx.insert(accountRecoveryCodes).values(recoveryCodes.map((code) => ({ accountId, codeHash: recoveryCodeHash(code), createdAt: now })));
  return recoveryCodes;
}

/**
 * A sign-in's second step: the authenticator's present code (each time step once), or an unused recovery code (then
 * used up, audited). 'wrong' for anything else, a code already used included. (A passkey's answer: second-factors.ts.)
 */
export async function checkSecondFactor(db: Database, input: { accountId: number; code: string; now: Date }): Promise<'totp' | 'recovery_code' | 'wrong'> {
  const factor = await factorOf(db, input.accountId);
  const code = input.code.replace(/\s/g, '');
  // An account with passkeys alone has recovery codes too, and no app whose code could match.
  const step = factor?.confirmedAt ? acceptedStep(decryptSecret(factor.secretEncrypted), code, input.now) : undefined;
  if (step !== undefined) {
    // One statement: of two sign-ins racing with one code, one moves the step on and the other finds it moved.
    const moved = await db
      .update(accountTotpFactors)
      .set({ lastUsedStep: step })
      .where(and(eq(accountTotpFactors.accountId, input.accountId), lt(accountTotpFactors.lastUsedStep, step)))
      .returning({ accountId: accountTotpFactors.accountId });
    return moved.length === 1 ? 'totp' : 'wrong';
  }
  const used = await db
    .update(accountRecoveryCodes)
    .set({ usedAt: input.now })
    .where(and(eq(accountRecoveryCodes.accountId, input.accountId), eq(accountRecoveryCodes.codeHash, recoveryCodeHash(code)), isNull(accountRecoveryCodes.usedAt)))
    .returning({ id: accountRecoveryCodes.id });
  if (used.length === 0) return 'wrong';
  await recordAudit(db, { actor: `account:${input.accountId}`, action: 'account.recovery_code_use', subject: `account:${input.accountId}`, after: { recoveryCodeId: used[0]!.id } });
  return 'recovery_code';
}

export async function dropRecoveryCodes(tx: Database, accountId: number): Promise<void> {
  await tx.delete(accountRecoveryCodes).where(eq(accountRecoveryCodes.accountId, accountId));
}

/**
 * Deletes the account's authenticator (set up or being set up) and its recovery codes (unless a passkey remains), and ends the account's
 * sessions (the session version moves on), with `alsoSet` written to the account in the same update; in the caller's
 * transaction, which refuses (and so rolls back) when what was there is not what it expected.
 */
export async function dropTotpFactor(
  tx: Database,
  accountId: number,
  alsoSet: Partial<Pick<typeof accounts.$inferInsert, 'secondFactorResetAt' | 'secondFactorResetReason'>> = {},
): Promise<{ removed: boolean; wasConfirmed: boolean; sessionVersion: number }> {
  const removed = await tx.delete(accountTotpFactors).where(eq(accountTotpFactors.accountId, accountId)).returning({ confirmedAt: accountTotpFactors.confirmedAt });
  // The recovery codes stand in for every second factor: they stay while the account keeps a passkey.
  if ((await tx.$count(accountPasskeys, eq(accountPasskeys.accountId, accountId))) === 0) await dropRecoveryCodes(tx, accountId);
  const [row] = await tx
    .update(accounts)
    .set({ sessionVersion: sql`${accounts.sessionVersion} + 1`, ...alsoSet })
    .where(eq(accounts.id, accountId))
    .returning({ sessionVersion: accounts.sessionVersion });
  return { removed: removed.length > 0, wasConfirmed: removed.some((factor) => factor.confirmedAt !== null), sessionVersion: row!.sessionVersion };
}

