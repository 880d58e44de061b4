import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { auditLog } from '../db/schema';
import { signUpMerchant } from '../accounts/sign-up-merchant';
import { startTestApp, type TestApp } from '../../test/open-api-client';
import { APP_SECRET_OVERLAP_MS, endAppSecretOverlap, revealAppSecret, rotateAppSecret } from './interface-keys';
import { merchantContextOf, type MerchantContext } from './merchant-context';

/**
 * Rotating the AppSecret with an overlap, over the open API: during the overlap a request signed with the old secret
 * and one signed with the new are both the merchant's; the overlap ends when the merchant ends it or after 24 hours,
 * and each step is audited. Without an overlap the old secret stops at once.
 */
const PASSWORD = 'correct horse battery';
const QUERY = '/v1/api/open/order/query';
let app: TestApp;
let sequence = 0;

async function aPortalMerchant(): Promise<MerchantContext> {
  sequence += 1;
  const { accountId } = await signUpMerchant(getDb(), {
    merchantName: `Rotating shop ${sequence}`,
    email: `rotating${sequence}-${process.pid}-${Date.now()}@example.com`,
    password: PASSWORD,
    clientAddress: `198.51.100.${sequence}`,
    now: new Date(),
  });
  return (await merchantContextOf(getDb(), accountId))!;
}

/** The open API's code for a query signed with `secret` (1006: the signature was accepted, the order is unknown). */
async function codeSignedWith(context: MerchantContext, secret: string): Promise<number> {
  const answer = await app.signedPost(QUERY, { appId: context.appId, merchantOrderNo: 'NO-SUCH-ORDER' }, secret);
  return answer.json.code;
}

async function auditOf(context: MerchantContext) {
  return getDb()
    .select({ action: auditLog.action, after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.subject, `merchant:${context.appId}`)))
    .orderBy(desc(auditLog.id));
}

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('AppSecret rotation with an overlap', () => {
  it('accepts both secrets until the merchant ends the overlap, then only the new one; audited', async () => {
    const shop = await aPortalMerchant();
    const old = await revealAppSecret(getDb(), shop, { password: PASSWORD, now: new Date() });
    const now = new Date();
    const fresh = await rotateAppSecret(getDb(), shop, { password: PASSWORD, now, overlap: true });
    expect(fresh).not.toBe(old);
    expect(await codeSignedWith(shop, old)).toBe(1006);
    expect(await codeSignedWith(shop, fresh)).toBe(1006);
    expect(await codeSignedWith(shop, 'not-the-secret')).toBe(1002);
    const [rotation] = await auditOf(shop);
    expect(rotation).toEqual({ action: 'merchant.app_secret.rotate', after: { previousSecretValidUntil: new Date(now.getTime() + APP_SECRET_OVERLAP_MS).toISOString() } });

    // Ending it early is as grave as rotating: the password again (a session alone is refused, the old secret still works).
    await expect(endAppSecretOverlap(getDb(), shop, { password: 'not the password', now: new Date() })).rejects.toThrow(/password/i);
    expect(await codeSignedWith(shop, old)).toBe(1006);
    const endedAt = new Date();
    expect(await endAppSecretOverlap(getDb(), shop, { password: PASSWORD, now: endedAt })).toEqual({ endedAt });
    expect(await codeSignedWith(shop, old)).toBe(1002);
    expect(await codeSignedWith(shop, fresh)).toBe(1006);
    expect((await auditOf(shop))[0]!.action).toBe('merchant.app_secret.overlap_end');
  });

  it('ends by itself 24 hours after the rotation', async () => {
    const shop = await aPortalMerchant();
    const old = await revealAppSecret(getDb(), shop, { password: PASSWORD, now: new Date() });
    // Rotated a day and a minute ago: the overlap is over.
    const fresh = await rotateAppSecret(getDb(), shop, { password: PASSWORD, now: new Date(Date.now() - APP_SECRET_OVERLAP_MS - 60_000), overlap: true });
    expect(await codeSignedWith(shop, old)).toBe(1002);
    expect(await codeSignedWith(shop, fresh)).toBe(1006);
  });

  it('without an overlap the old secret stops at once', async () => {
    const shop = await aPortalMerchant();
    const old = await revealAppSecret(getDb(), shop, { password: PASSWORD, now: new Date() });
    const fresh = await rotateAppSecret(getDb(), shop, { password: PASSWORD, now: new Date() });
    expect(await codeSignedWith(shop, old)).toBe(1002);
    expect(await codeSignedWith(shop, fresh)).toBe(1006);
    expect((await auditOf(shop))[0]).toEqual({ action: 'merchant.app_secret.rotate', after: { previousSecretValidUntil: null } });
  });
});
