import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SoftwarePasskey } from '../../test/software-passkey';
import { getDb } from '../db/client';
import { accountPasskeys, accountRecoveryCodes, accountSessions, accounts, auditLog, webauthnChallenges } from '../db/schema';
import { openAccountSession } from './account-sessions';
import { createAccount } from './accounts';
import { authenticateAccount } from './authenticate-account';
import { encodePasskeyAnswer } from './passkey-answer';
import { passkeyAssertionOptions, type AssertionPurpose } from './passkey-assertion';
import { addPasskey, listPasskeys, passkeyRegistrationOptions, removePasskey } from './passkey-enrolment';
import { relyingParty } from './passkey-relying-party';
import { authenticateWithPasskey } from './passkey-sign-in';
import { resetSecondFactor } from './reset-second-factor';
import { confirmStepUp, stepUpAsk } from './step-up';
import { CHALLENGE_TTL_MS } from './webauthn-challenges';

const PASSWORD = 'correct horse battery';
let sequence = 0;
const anEmail = () => `passkey${(sequence += 1)}-${process.pid}-${Date.now()}@example.com`;
const origin = () => relyingParty().origin;
const later = (from: Date, ms: number) => new Date(from.getTime() + ms);

async function aSession(accountId: number, now: Date) {
  return openAccountSession(getDb(), { accountId, sessionVersion: 0, userAgent: 'test', clientAddress: '192.0.2.9', now, secondFactorAnswered: false });
}

/** An account with a passkey added the way the account page adds it: the options, the authenticator, the password. */
async function anAccountWithPasskey(now = new Date()) {
  const account = await createAccount(getDb(), { email: anEmail(), password: PASSWORD, role: 'merchant' });
  const sessionId = await aSession(account.id, now);
  const passkey = new SoftwarePasskey({ origin: origin() });
  const { challengeId, options } = await passkeyRegistrationOptions(getDb(), { accountId: account.id, now });
  const added = await addPasskey(getDb(), { accountId: account.id, sessionId, answer: PASSWORD, challengeId, response: passkey.create(options), name: 'Work laptop', now });
  return { account, sessionId, passkey, added };
}

/** The passkey's answer to a fresh challenge of `purpose`, as the browser posts it. */
async function answerOf(passkey: SoftwarePasskey, purpose: AssertionPurpose, accountId?: number, now = new Date()) {
  const { challengeId, options } = await passkeyAssertionOptions(getDb(), { purpose, accountId, now });
  return encodePasskeyAnswer({ challengeId, response: passkey.get(options) });
}

describe('passkeys', () => {
  it('are added after the password, with the recovery codes of a first factor, and asked after the password from then on', async () => {
    const { account, passkey, added } = await anAccountWithPasskey();
    expect(added.recoveryCodes).toHaveLength(10);
    expect(await getDb().$count(accountRecoveryCodes, eq(accountRecoveryCodes.accountId, account.id))).toBe(10);
    expect(await listPasskeys(getDb(), account.id)).toEqual([expect.objectContaining({ name: 'Work laptop', lastUsedAt: null })]);
    const [audit] = await getDb().select().from(auditLog).where(and(eq(auditLog.subject, `account:${account.id}`), eq(auditLog.action, 'account.second_factor_enrol')));
    expect(audit!.after).toMatchObject({ kind: 'passkey', name: 'Work laptop', recoveryCodes: 10 });

    const signIn = (secondFactor?: string) => authenticateAccount(getDb(), { email: account.email, password: PASSWORD, secondFactor, clientAddress: '198.51.100.7', now: new Date() });
    expect(await signIn()).toEqual({ ok: false, reason: 'second_factor_required' });
    const answer = await answerOf(passkey, 'second_factor');
    expect(await signIn(answer)).toMatchObject({ ok: true, account: { id: account.id, secondFactorAnswered: true } });
    // The same answer again (a replay from a log or a proxy): its challenge was taken.
    expect(await signIn(answer)).toEqual({ ok: false, reason: 'second_factor_invalid' });
    expect((await listPasskeys(getDb(), account.id))[0]!.lastUsedAt).toBeInstanceOf(Date);
    // A recovery code still answers the second step.
    expect(await signIn(added.recoveryCodes![0])).toMatchObject({ ok: true });
  });

  it('sign in on their own, with the person verified; an answer of a passkey nobody added, a replay or a phishing origin is refused', async () => {
    const { account, passkey } = await anAccountWithPasskey();
    const now = new Date();
    const signIn = (answer: string) => authenticateWithPasskey(getDb(), { answer, clientAddress: '198.51.100.8', now: new Date() });
    const answer = await answerOf(passkey, 'sign_in');
    expect(await signIn(answer)).toMatchObject({ ok: true, account: { id: account.id, email: account.email, role: 'merchant', secondFactorAnswered: true } });
    expect(await signIn(answer)).toEqual({ ok: false, reason: 'passkey_invalid' });

    const stranger = new SoftwarePasskey({ origin: origin() });
    expect(await signIn(await answerOf(stranger, 'sign_in'))).toEqual({ ok: false, reason: 'passkey_invalid' });
    const phished = Object.assign(Object.create(Object.getPrototypeOf(passkey)), passkey, { settings: { origin: 'https://payment-back-office.example.net' } }) as SoftwarePasskey;
    expect(await signIn(await answerOf(phished, 'sign_in'))).toEqual({ ok: false, reason: 'passkey_invalid' });
    // A challenge of another purpose (a step-up's) does not sign in, and neither does garbage.
    expect(await signIn(await answerOf(passkey, 'step_up', account.id))).toEqual({ ok: false, reason: 'passkey_invalid' });
    expect(await signIn('passkey:{"challengeId":"x","response":{}}')).toEqual({ ok: false, reason: 'passkey_invalid' });
    expect(await signIn('not an answer at all')).toEqual({ ok: false, reason: 'passkey_invalid' });
    // An expired challenge.
    const { challengeId, options } = await passkeyAssertionOptions(getDb(), { purpose: 'sign_in', now: later(now, -CHALLENGE_TTL_MS - 1000) });
    expect(await signIn(encodePasskeyAnswer({ challengeId, response: passkey.get(options) }))).toEqual({ ok: false, reason: 'passkey_invalid' });
  });

  it('refuse an authenticator that did not verify its person, and a signature counter that went back (a cloned key)', async () => {
    const { account, passkey } = await anAccountWithPasskey();
    const signIn = (answer: string) => authenticateWithPasskey(getDb(), { answer, clientAddress: '198.51.100.9', now: new Date() });
    expect(await signIn(await answerOf(passkey, 'sign_in'))).toMatchObject({ ok: true });
    passkey.signCount -= 2;
    expect(await signIn(await answerOf(passkey, 'sign_in'))).toEqual({ ok: false, reason: 'passkey_invalid' });
    passkey.signCount += 5;
    (passkey as unknown as { settings: { userVerified: boolean } }).settings.userVerified = false;
    expect(await signIn(await answerOf(passkey, 'sign_in'))).toEqual({ ok: false, reason: 'passkey_invalid' });
    expect(await getDb().$count(accountPasskeys, eq(accountPasskeys.accountId, account.id))).toBe(1);
  });

  it("answer the step-up of an account with passkeys alone, whose code field takes a recovery code; another account's passkey does not", async () => {
    const { account, sessionId, passkey, added } = await anAccountWithPasskey();
    const now = new Date();
    const session = { accountId: account.id, sessionId };
    expect(await stepUpAsk(getDb(), session, now)).toBe('passkey');
    await expect(confirmStepUp(getDb(), { ...session, answer: '', now })).rejects.toMatchObject({ fieldErrors: { password: { key: 'accounts.stepUpPasskeyMissingField' } } });
    await expect(confirmStepUp(getDb(), { ...session, answer: PASSWORD, now })).rejects.toMatchObject({ fieldErrors: { password: { key: 'accounts.stepUpPasskeyWrongField' } } });
    const other = await anAccountWithPasskey();
    await expect(confirmStepUp(getDb(), { ...session, answer: await answerOf(other.passkey, 'step_up', other.account.id), now })).rejects.toMatchObject({ kind: 'password_rejected' });
    await expect(confirmStepUp(getDb(), { ...session, answer: await answerOf(passkey, 'step_up', account.id), now })).resolves.toBeUndefined();
    expect(await stepUpAsk(getDb(), session, now)).toBe('none');
    // Past the window, a recovery code answers it too.
    const past = later(now, 11 * 60_000);
    await expect(confirmStepUp(getDb(), { ...session, answer: added.recoveryCodes![1]!, now: past })).resolves.toBeUndefined();
  });

  it('refuse a missing or long name, an expired or replayed registration, a second copy of one passkey, naming the field, adding nothing', async () => {
    const { account, sessionId, passkey } = await anAccountWithPasskey();
    const now = new Date();
    const base = { accountId: account.id, sessionId, now };
    const fresh = async () => passkeyRegistrationOptions(getDb(), { accountId: account.id, now });
    const answer = await answerOf(passkey, 'step_up', account.id);
    const first = await fresh();
    await expect(addPasskey(getDb(), { ...base, answer, challengeId: first.challengeId, response: new SoftwarePasskey({ origin: origin() }).create(first.options), name: '  ' })).rejects.toMatchObject({
      fieldErrors: { name: { key: 'accounts.passkeyNameMissing' } },
    });
    await expect(addPasskey(getDb(), { ...base, answer, challengeId: first.challengeId, response: {}, name: 'x'.repeat(61) })).rejects.toMatchObject({ fieldErrors: { name: { key: 'accounts.passkeyNameTooLong' } } });
    // The step-up is answered (window open) from here; a malformed answer to the registration is refused on `passkey`.
    await confirmStepUp(getDb(), { accountId: account.id, sessionId, answer, now });
    await expect(addPasskey(getDb(), { ...base, answer: '', challengeId: first.challengeId, response: { id: 'x', response: {} }, name: 'Phone' })).rejects.toMatchObject({
      fieldErrors: { passkey: { key: 'accounts.passkeyNotVerified' } },
    });
    // That took the challenge: answering it again is an expired registration.
    await expect(addPasskey(getDb(), { ...base, answer: '', challengeId: first.challengeId, response: {}, name: 'Phone' })).rejects.toMatchObject({ fieldErrors: { passkey: { key: 'accounts.passkeyExpired' } } });
    const second = await fresh();
    expect(second.options.excludeCredentials).toEqual([expect.objectContaining({ id: passkey.credentialId.toString('base64url') })]);
    await expect(addPasskey(getDb(), { ...base, answer: '', challengeId: second.challengeId, response: passkey.create(second.options), name: 'Again' })).rejects.toMatchObject({ fieldErrors: { passkey: { key: 'accounts.passkeyKnown' } } });
    expect(await listPasskeys(getDb(), account.id)).toHaveLength(1);
    // A second passkey of the same account brings no new recovery codes.
    const third = await fresh();
    const phone = await addPasskey(getDb(), { ...base, answer: '', challengeId: third.challengeId, response: new SoftwarePasskey({ origin: origin() }).create(third.options), name: 'Phone' });
    expect(phone.recoveryCodes).toBeUndefined();
    expect(await getDb().$count(webauthnChallenges, eq(webauthnChallenges.accountId, account.id))).toBe(0);
  });

  it('removed after the step-up end the other sessions; the last one takes the recovery codes; an operator reset removes them all', async () => {
    const { account, sessionId, passkey } = await anAccountWithPasskey();
    const now = new Date();
    const other = await aSession(account.id, now);
    const [row] = await listPasskeys(getDb(), account.id);
    const remove = (answer: string, passkeyId: unknown = row!.id) => removePasskey(getDb(), { accountId: account.id, sessionId, answer, passkeyId, actor: `account:${account.email}`, clientAddress: '192.0.2.9', now });
    await expect(remove('')).rejects.toMatchObject({ kind: 'password_rejected' });
    await expect(remove(await answerOf(passkey, 'step_up', account.id), 'one')).rejects.toMatchObject({ kind: 'action_refused' });
    // Another account's passkey, named by its id: refused, and it stays.
    const stranger = await anAccountWithPasskey();
    const [theirs] = await listPasskeys(getDb(), stranger.account.id);
    await expect(remove(await answerOf(passkey, 'step_up', account.id), theirs!.id)).rejects.toMatchObject({ kind: 'action_refused', userMessage: { key: 'accounts.passkeyUnknown' } });
    expect(await listPasskeys(getDb(), stranger.account.id)).toHaveLength(1);
    expect(await remove(await answerOf(passkey, 'step_up', account.id))).toEqual({ endedSessions: 1 });
    const sessions = await getDb().select({ id: accountSessions.id, endedAt: accountSessions.endedAt }).from(accountSessions).where(eq(accountSessions.accountId, account.id));
    expect(sessions.find((session) => session.id === other)!.endedAt).toBeInstanceOf(Date);
    expect(sessions.find((session) => session.id === sessionId)!.endedAt).toBeNull();
    expect(await getDb().$count(accountRecoveryCodes, eq(accountRecoveryCodes.accountId, account.id))).toBe(0);
    expect(await stepUpAsk(getDb(), { accountId: account.id, sessionId }, now)).toBe('password');

    const lost = await anAccountWithPasskey();
    await resetSecondFactor(getDb(), { email: lost.account.email, actor: 'ops:alice', reason: 'owner came with ID', now });
    expect(await listPasskeys(getDb(), lost.account.id)).toEqual([]);
    expect(await getDb().$count(accountRecoveryCodes, eq(accountRecoveryCodes.accountId, lost.account.id))).toBe(0);
    const [reset] = await getDb().select({ at: accounts.secondFactorResetAt }).from(accounts).where(eq(accounts.id, lost.account.id));
    expect(reset!.at).toBeInstanceOf(Date);
    expect(await authenticateAccount(getDb(), { email: lost.account.email, password: PASSWORD, clientAddress: '198.51.100.10', now })).toMatchObject({ ok: true });
  });
});
