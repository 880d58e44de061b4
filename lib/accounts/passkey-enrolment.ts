import { generateRegistrationOptions, verifyRegistrationResponse, type PublicKeyCredentialCreationOptionsJSON, type RegistrationResponseJSON } from '@simplewebauthn/server';
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accountPasskeys, accounts } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { DomainError, actionRefused } from '../errors/domain-error';
import { domainMessage, type DomainMessage } from '../errors/domain-message';
import { endAccountSessions } from './account-sessions';
import { transportsOf } from './passkey-assertion';
import { relyingParty } from './passkey-relying-party';
import { hasAnySecondFactor, secondFactorsOf } from './second-factors';
import { confirmStepUp, type StepUpSession } from './step-up';
import { dropRecoveryCodes, replaceRecoveryCodes } from './totp-factor';
import { keepChallenge, takeChallenge } from './webauthn-challenges';

/** A person names each passkey (the device or manager that holds it), so that the list says which one to remove. */
export const PASSKEY_NAME_MAX = 60;
/** Enough for every device a person uses, few enough that the list stays readable. */
export const PASSKEYS_PER_ACCOUNT = 10;

const passkeyRefused = (message: string, userMessage: DomainMessage) => new DomainError('invalid_parameter', { message: `passkey: ${message}`, userMessage, fieldErrors: { passkey: userMessage } });

/**
 * What the browser passes to navigator.credentials.create to make a passkey for the signed-in account: a
 * discoverable credential (so that it also signs in without the email), its person verified, none of the account's
 * present passkeys made again on the same authenticator. The user handle is the account's id, not its email.
 */
export async function passkeyRegistrationOptions(db: Database, input: { accountId: number; now: Date }): Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const [account] = await db.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, input.accountId)).limit(1);
  if (!account) throw actionRefused(`account ${input.accountId} not found`);
  const existing = await db.select({ id: accountPasskeys.credentialId, transports: accountPasskeys.transports }).from(accountPasskeys).where(eq(accountPasskeys.accountId, input.accountId));
  const party = relyingParty();
  const options = await generateRegistrationOptions({
    rpName: party.name,
    rpID: party.id,
    userName: account.email,
    userID: new TextEncoder().encode(`account:${input.accountId}`),
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({ id: passkey.id, transports: transportsOf(passkey.transports) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: 120_000,
  });
  const challengeId = await keepChallenge(db, { accountId: input.accountId, purpose: 'register', challenge: options.challenge, now: input.now });
  return { challengeId, options };
}

function passkeyName(raw: unknown): string {
  const name = typeof raw === 'string' ? raw.trim() : '';
  const problem = (message: string, field: DomainMessage) => new DomainError('invalid_parameter', { message: `name: ${message}`, userMessage: field, fieldErrors: { name: field } });
  if (name === '') throw problem('required', domainMessage('accounts.passkeyNameMissing'));
  if (name.length > PASSKEY_NAME_MAX) throw problem(`at most ${PASSKEY_NAME_MAX} characters`, domainMessage('accounts.passkeyNameTooLong', { max: PASSKEY_NAME_MAX }));
  return name;
}

/**
 * Adds the passkey the browser made for a registration challenge, after the step-up (adding a way in is as sensitive
 * as removing one: the password of an account without a second factor, else its code or passkey). The account's
 * first second factor comes with its ten recovery codes, returned this once.
 */
export async function addPasskey(
  db: Database,
  input: StepUpSession & { answer: string; challengeId: string; response: unknown; name: unknown; now: Date },
): Promise<{ passkeyId: number; recoveryCodes?: string[] }> {
  const name = passkeyName(input.name);
  await confirmStepUp(db, input);
  const factors = await secondFactorsOf(db, input.accountId);
  if (factors.passkeys >= PASSKEYS_PER_ACCOUNT) throw actionRefused(`at most ${PASSKEYS_PER_ACCOUNT} passkeys per account`, domainMessage('accounts.passkeysFull', { limit: PASSKEYS_PER_ACCOUNT }));
  const challenge = await takeChallenge(db, { id: input.challengeId, purpose: 'register', accountId: input.accountId, now: input.now });
  if (challenge === undefined) throw passkeyRefused('the registration expired or was answered already: start again', domainMessage('accounts.passkeyExpired'));
  const party = relyingParty();
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({ response: input.response as RegistrationResponseJSON, expectedChallenge: challenge, expectedOrigin: party.origin, expectedRPID: party.id, requireUserVerification: true });
  } catch (error) {
    throw passkeyRefused(`not a valid answer to the registration (${(error as Error).message})`, domainMessage('accounts.passkeyNotVerified'));
  }
  if (!verified.verified) throw passkeyRefused('the authenticator did not verify its person', domainMessage('accounts.passkeyNotVerified'));
  const { credential, credentialBackedUp } = verified.registrationInfo;
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [row] = await tx
      .insert(accountPasskeys)
      .values({
        accountId: input.accountId,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        signCount: credential.counter,
        transports: (credential.transports ?? []).join(','),
        name,
        backedUp: credentialBackedUp,
        createdAt: input.now,
      })
      .onConflictDoNothing({ target: accountPasskeys.credentialId })
      .returning({ id: accountPasskeys.id });
    if (!row) throw passkeyRefused('this passkey is registered already', domainMessage('accounts.passkeyKnown'));
    const recoveryCodes = hasAnySecondFactor(factors) ? undefined : await replaceRecoveryCodes(tx, input.accountId, input.now);
    await recordAudit(tx, { actor: `account:${input.accountId}`, action: 'account.second_factor_enrol', subject: `account:${input.accountId}`, after: { kind: 'passkey', passkeyId: row.id, name, recoveryCodes: recoveryCodes?.length ?? 0 } });
    return { passkeyId: row.id, recoveryCodes };
  });
}

export interface PasskeyListing {
  id: number;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  backedUp: boolean;
}

export async function listPasskeys(db: Database, accountId: number): Promise<PasskeyListing[]> {
  return db
    .select({ id: accountPasskeys.id, name: accountPasskeys.name, createdAt: accountPasskeys.createdAt, lastUsedAt: accountPasskeys.lastUsedAt, backedUp: accountPasskeys.backedUp })
    .from(accountPasskeys)
    .where(eq(accountPasskeys.accountId, accountId))
    .orderBy(asc(accountPasskeys.createdAt), asc(accountPasskeys.id));
}

/**
 * Removes one of the account's passkeys after the step-up; the account's other sessions end (one of them may be the
 * passkey's). Removing the last second factor takes the recovery codes with it.
 */
export async function removePasskey(db: Database, input: StepUpSession & { sessionId: string; answer: string; passkeyId: unknown; actor: string; clientAddress: string; now: Date }): Promise<{ endedSessions: number }> {
  const passkeyId = typeof input.passkeyId === 'number' && Number.isSafeInteger(input.passkeyId) ? input.passkeyId : undefined;
  if (passkeyId === undefined) throw actionRefused('passkeyId: not a passkey of this account', domainMessage('accounts.passkeyUnknown'));
  await confirmStepUp(db, input);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [removed] = await tx
      .delete(accountPasskeys)
      .where(and(eq(accountPasskeys.id, passkeyId), eq(accountPasskeys.accountId, input.accountId)))
      .returning({ name: accountPasskeys.name });
    if (!removed) throw actionRefused(`passkeyId: ${passkeyId} is not a passkey of this account`, domainMessage('accounts.passkeyUnknown'));
    if (!hasAnySecondFactor(await secondFactorsOf(tx, input.accountId))) await dropRecoveryCodes(tx, input.accountId);
    await recordAudit(tx, { actor: input.actor, action: 'account.second_factor_remove', subject: `account:${input.accountId}`, after: { kind: 'passkey', passkeyId, name: removed.name } });
    const ended = await endAccountSessions(tx, { accountId: input.accountId, except: input.sessionId, by: { actor: input.actor, clientAddress: input.clientAddress }, now: input.now });
    return { endedSessions: ended.length };
  });
}
