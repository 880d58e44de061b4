import { eq } from 'drizzle-orm';
import { aMerchant } from '../../test/factories';
import { describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { auditLog } from '../db/schema';
import { findUsableCredential } from '../credentials/find-usable-credential';
import { alipaySandboxKeys } from '../channels/alipay/sandbox-keys';
import { wechatSandboxCredentialInput } from '../channels/wechat/sandbox-keys';
import { parseSingleJsonObject, runAdmin, runAdminJson } from './run-admin-for-tests';
import { addSandboxCredential } from './credential-add-command';

describe('admin credential add --sandbox', () => {
  it('binds an ALIPAY credential of the merchant to the simulator\'s application, approved and enabled, audited', async () => {
    const merchant = await runAdminJson(['merchant', 'create', '--name', 'Sandbox shop', '--orders', 'on']);
    const added = await runAdminJson(['credential', 'add', '--app-id', String(merchant.appId), '--channel', 'ALIPAY', '--sandbox', '--approve', '--enable'], {
      env: { ...process.env, OPERATOR: 'operator:sam' },
    });
    const keys = await alipaySandboxKeys(getDb());
    expect(added).toEqual({
      credentialId: expect.any(Number),
      merchantId: expect.any(Number),
      channel: 'ALIPAY',
      upstreamAppId: keys.appId,
      reviewStatus: 'approved',
      enabled: true,
      usable: true,
    });
    const usable = await findUsableCredential(getDb(), added.merchantId as number, 'ALIPAY');
    expect(usable).toMatchObject({ id: added.credentialId, upstreamAppId: keys.appId, upstreamPublicKey: keys.alipayPublicKey });
    expect(usable!.privateKey.replace(/\s/g, '')).toBe(keys.appPrivateKey.replace(/\s/g, ''));
    const entries = await getDb().select().from(auditLog).where(eq(auditLog.subject, `credential:${String(added.credentialId)}`)).orderBy(auditLog.id);
    expect(entries.map((entry) => [entry.action, entry.actor])).toEqual([
      ['credential.submit', 'operator:sam'],
      ['credential.approve', 'operator:sam'],
    ]);
  });

  it('without --approve it waits for review, without --enable it is disabled', async () => {
    const merchant = await aMerchant();
    expect(await runAdminJson(['credential', 'add', '--app-id', String(merchant.appId), '--channel', 'ALIPAY', '--sandbox'])).toMatchObject({
      reviewStatus: 'pending',
      enabled: false,
      usable: false,
    });
  });

  it('refuses what it cannot do, naming why', async () => {
    const merchant = await aMerchant();
    const cases: [string[], string, string][] = [
      [['--channel', 'ALIPAY', '--sandbox', '--app-id', 'mch_nobody'], 'rejected', 'merchant not found: mch_nobody'],
      [['--channel', 'PAYPAL', '--sandbox', '--app-id', String(merchant.appId)], 'usage', 'option --channel must be ALIPAY or WECHAT, got "PAYPAL"'],
      [['--channel', 'ALIPAY', '--app-id', String(merchant.appId)], 'usage', 'only sandbox credentials are added here (--sandbox); merchants submit real ones in the portal'],
    ];
    for (const [args, kind, message] of cases) {
      const run = await runAdmin(['credential', 'add', ...args, '--json']);
      expect(run.exitCode).toBe(1);
      expect(parseSingleJsonObject(run.stdout)).toEqual({ error: { kind, message } });
    }
  });

  it('binds a WECHAT credential to the WeChat Pay simulator (public key mode)', async () => {
    const merchant = await aMerchant();
    const added = await runAdminJson(['credential', 'add', '--app-id', String(merchant.appId), '--channel', 'WECHAT', '--sandbox', '--approve', '--enable']);
    const keys = await wechatSandboxCredentialInput(getDb());
    expect(added).toMatchObject({ channel: 'WECHAT', merchantId: merchant.id, upstreamAppId: keys.appId, usable: true });
    const usable = await findUsableCredential(getDb(), merchant.id, 'WECHAT');
    expect(usable).toMatchObject({ id: added.credentialId, mchId: keys.mchId, merchantCertSerial: keys.merchantCertSerial, upstreamPublicKeyId: keys.wechatPayPublicKeyId, apiV3Key: keys.apiV3Key });
  });

  it('a channel without a simulator is refused by name', async () => {
    const merchant = await aMerchant();
    await expect(addSandboxCredential(getDb(), { appId: merchant.appId, channel: 'WECHAT', approve: true, enable: true, actor: 'test', providers: {} })).rejects.toThrow(
      'WECHAT sandbox credentials are not available',
    );
  });
});
