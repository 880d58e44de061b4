import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { auditLog, upstreamCredentials } from '../db/schema';
import { createMerchant } from '../merchants/merchants';
import { API_V3_KEY, anAlipayCredential, aWechatCredential } from '../../test/credential-keys';
import { deleteCredential, listMerchantCredentials, reviewCredential, setCredentialEnabled, submitCredential } from './credentials';
import { credentialChannelNamed } from '../channels/index';
import { findUsableCredential } from './find-usable-credential';

const now = () => new Date();
let alice: number;
let bob: number;

beforeAll(async () => {
  alice = (await createMerchant(getDb(), { name: 'Alice', orderPermission: true })).merchant.id;
  bob = (await createMerchant(getDb(), { name: 'Bob', orderPermission: true })).merchant.id;
});

async function alipay(merchantId: number) {
  return submitCredential(getDb(), credentialChannelNamed('ALIPAY'), { merchantId, actor: 'account:test', now: now(), credential: anAlipayCredential() });
}

async function approved(merchantId: number) {
  const credential = await alipay(merchantId);
  return reviewCredential(getDb(), { credentialId: credential.id, decision: 'approve', actor: 'operator:test', now: now() });
}

describe('submitting', () => {
  it('stores secrets encrypted: the row holds no plain private key or APIv3 key, public parts stay plain', async () => {
    const input = aWechatCredential();
    const submitted = await submitCredential(getDb(), credentialChannelNamed('WECHAT'), { merchantId: alice, actor: 'account:alice', now: now(), credential: input });
    expect(submitted).toMatchObject({ channel: 'WECHAT', reviewStatus: 'pending', enabled: true, usable: false, wechatVerification: 'platform_certificate' });

    const [row] = await getDb().select().from(upstreamCredentials).where(eq(upstreamCredentials.id, submitted.id));
    const stored = JSON.stringify(row);
    const keyBody = input.merchantPrivateKey.split('\n')[1]!;
    expect(stored).not.toContain(keyBody);
    expect(stored).not.toContain(API_V3_KEY);
    expect(row!.privateKeyEncrypted).toMatch(/^v1\./);
    expect(row!.apiV3KeyEncrypted).toMatch(/^v1\./);
    expect(row!.platformCertificate).toContain('BEGIN CERTIFICATE');
    expect(row!.mchId).toBe('1900000109');

    // Decrypted only for the adapters, once usable.
    await reviewCredential(getDb(), { credentialId: submitted.id, decision: 'approve', actor: 'operator:test', now: now() });
    const usable = await findUsableCredential(getDb(), alice, 'WECHAT', submitted.id);
    expect(usable?.apiV3Key).toBe(API_V3_KEY);
    expect(usable?.privateKey).toBe(input.merchantPrivateKey);
  });

  it('never lists a secret and audits the submission without one', async () => {
    const input = anAlipayCredential();
    const submitted = await submitCredential(getDb(), credentialChannelNamed('ALIPAY'), { merchantId: alice, actor: 'account:alice', now: now(), credential: input });
    const listed = await listMerchantCredentials(getDb(), alice);
    const text = JSON.stringify(listed);
    expect(text).not.toContain('PRIVATE KEY');
    expect(text).not.toContain(API_V3_KEY);
    expect(text).not.toContain('v1.');
    const [entry] = await getDb().select().from(auditLog).where(eq(auditLog.subject, `credential:${submitted.id}`));
    expect(entry).toMatchObject({ actor: 'account:alice', action: 'credential.submit' });
    expect(JSON.stringify(entry)).not.toContain('PRIVATE KEY');
  });

  it('stores nothing when a field is bad', async () => {
    const before = (await listMerchantCredentials(getDb(), bob)).length;
    await expect(
      submitCredential(getDb(), credentialChannelNamed('ALIPAY'), { merchantId: bob, actor: 'account:bob', now: now(), credential: { ...anAlipayCredential(), appPrivateKey: 'not a key' } }),
    ).rejects.toMatchObject({ kind: 'invalid_credential' });
    expect(await listMerchantCredentials(getDb(), bob)).toHaveLength(before);
  });
});

describe('findUsableCredential (the contract’s 1009 rule)', () => {
  it('finds only approved, enabled, not deleted credentials of the merchant and channel', async () => {
    const merchant = (await createMerchant(getDb(), { name: 'Rules', orderPermission: true })).merchant.id;
    const pending = await alipay(merchant);
    const rejected = await alipay(merchant);
    await reviewCredential(getDb(), { credentialId: rejected.id, decision: 'reject', reason: 'wrong app id', actor: 'operator:test', now: now() });
    const disabled = await approved(merchant);
    await setCredentialEnabled(getDb(), { credentialId: disabled.id, scope: { kind: 'merchant', merchantId: merchant }, enabled: false, actor: 'account:test', now: now() });
    const deleted = await approved(merchant);
    await deleteCredential(getDb(), { credentialId: deleted.id, scope: { kind: 'merchant', merchantId: merchant }, actor: 'account:test', now: now() });
    const foreign = await approved(bob);

    expect(await findUsableCredential(getDb(), merchant, 'ALIPAY')).toBeUndefined();
    for (const credential of [pending, rejected, disabled, deleted, foreign]) {
      expect(await findUsableCredential(getDb(), merchant, 'ALIPAY', credential.id)).toBeUndefined();
    }
    expect(await findUsableCredential(getDb(), bob, 'ALIPAY', foreign.id)).toMatchObject({ id: foreign.id, merchantId: bob });
    // The right merchant, the wrong channel.
    expect(await findUsableCredential(getDb(), bob, 'WECHAT', foreign.id)).toBeUndefined();
    expect(await findUsableCredential(getDb(), merchant, 'ALIPAY', 0)).toBeUndefined();
    expect(await findUsableCredential(getDb(), merchant, 'ALIPAY', 2 ** 40)).toBeUndefined();

    // Approving the pending one later makes it usable; re-enabling the disabled one too.
    await reviewCredential(getDb(), { credentialId: pending.id, decision: 'approve', actor: 'operator:test', now: now() });
    expect((await findUsableCredential(getDb(), merchant, 'ALIPAY'))?.id).toBe(pending.id);
    await setCredentialEnabled(getDb(), { credentialId: disabled.id, scope: { kind: 'operator' }, enabled: true, actor: 'operator:test', now: now() });
    expect((await findUsableCredential(getDb(), merchant, 'ALIPAY'))?.id).toBe(disabled.id);
  });

  it('without an id picks the usable one with the greatest id', async () => {
    const merchant = (await createMerchant(getDb(), { name: 'Greatest', orderPermission: true })).merchant.id;
    const first = await approved(merchant);
    const second = await approved(merchant);
    await alipay(merchant); // newer, but pending
    expect(second.id).toBeGreaterThan(first.id);
    expect((await findUsableCredential(getDb(), merchant, 'ALIPAY'))?.id).toBe(second.id);
    expect((await findUsableCredential(getDb(), merchant, 'ALIPAY', first.id))?.id).toBe(first.id);
    await setCredentialEnabled(getDb(), { credentialId: second.id, scope: { kind: 'merchant', merchantId: merchant }, enabled: false, actor: 'account:test', now: now() });
    expect((await findUsableCredential(getDb(), merchant, 'ALIPAY'))?.id).toBe(first.id);
  });
});

describe('ownership and review', () => {
  it('another merchant can neither list, toggle nor delete a credential', async () => {
    const credential = await approved(alice);
    expect((await listMerchantCredentials(getDb(), bob)).map((row) => row.id)).not.toContain(credential.id);
    const asBob = { kind: 'merchant', merchantId: bob } as const;
    await expect(setCredentialEnabled(getDb(), { credentialId: credential.id, scope: asBob, enabled: false, actor: 'account:bob', now: now() })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(deleteCredential(getDb(), { credentialId: credential.id, scope: asBob, actor: 'account:bob', now: now() })).rejects.toMatchObject({ kind: 'not_found' });
    expect((await findUsableCredential(getDb(), alice, 'ALIPAY', credential.id))?.id).toBe(credential.id);
    expect(await getDb().$count(auditLog, eq(auditLog.actor, 'account:bob'))).toBe(0);
  });

  it('a deleted credential is gone for every later action and from the list', async () => {
    const credential = await alipay(alice);
    const asAlice = { kind: 'merchant', merchantId: alice } as const;
    await deleteCredential(getDb(), { credentialId: credential.id, scope: asAlice, actor: 'account:alice', now: now() });
    expect((await listMerchantCredentials(getDb(), alice)).map((row) => row.id)).not.toContain(credential.id);
    await expect(deleteCredential(getDb(), { credentialId: credential.id, scope: asAlice, actor: 'account:alice', now: now() })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(reviewCredential(getDb(), { credentialId: credential.id, decision: 'approve', actor: 'operator:test', now: now() })).rejects.toMatchObject({ kind: 'not_found' });
    const [row] = await getDb().select().from(upstreamCredentials).where(eq(upstreamCredentials.id, credential.id));
    expect(row!.deletedAt).not.toBeNull();
  });

  it('a rejection needs a reason, which the merchant sees; approving clears it; each change is audited', async () => {
    const credential = await alipay(alice);
    await expect(reviewCredential(getDb(), { credentialId: credential.id, decision: 'reject', reason: '  ', actor: 'operator:test', now: now() })).rejects.toMatchObject({ kind: 'action_refused' });
    await reviewCredential(getDb(), { credentialId: credential.id, decision: 'reject', reason: 'public key does not match', actor: 'operator:ann', now: now() });
    expect((await listMerchantCredentials(getDb(), alice)).find((row) => row.id === credential.id)).toMatchObject({
      reviewStatus: 'rejected',
      rejectionReason: 'public key does not match',
      usable: false,
    });
    await reviewCredential(getDb(), { credentialId: credential.id, decision: 'approve', actor: 'operator:ann', now: now() });
    expect((await listMerchantCredentials(getDb(), alice)).find((row) => row.id === credential.id)).toMatchObject({
      reviewStatus: 'approved',
      rejectionReason: null,
      usable: true,
    });
    const entries = await getDb().select().from(auditLog).where(eq(auditLog.subject, `credential:${credential.id}`)).orderBy(auditLog.id);
    expect(entries.map((entry) => [entry.action, entry.actor, entry.reason])).toEqual([
      ['credential.submit', 'account:test', null],
      ['credential.reject', 'operator:ann', 'public key does not match'],
      ['credential.approve', 'operator:ann', null],
    ]);
  });
});
