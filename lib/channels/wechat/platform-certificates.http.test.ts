import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aMerchant } from '../../../test/factories';
import { startSandboxTestBed } from '../../../test/beds/sandboxes';
import { paySandboxWechatOrder } from '../../../sandbox/wechat/pay';
import { rotateSandboxWechatCertificate, setSandboxWechatMode } from '../../../sandbox/wechat/signer';
import { addSandboxCredential } from '../../cli/credential-add-command';
import { getDb } from '../../db/client';
import { sandboxWechatKeysOf, wechatSandboxCredentialInput } from './sandbox-keys';
import { authorizationHeader, normalizeSerial } from './signing';

const SUBMIT = '/v1/api/open/order/submit';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let counter = 0;

/** A merchant with a sandbox WECHAT credential made in the sandbox's current mode. */
async function aShop() {
  const shop = await aMerchant();
  const credential = await addSandboxCredential(getDb(), { appId: shop.appId, channel: 'WECHAT', approve: true, enable: true, actor: 'test' });
  return { ...shop, credentialId: credential.id };
}

async function submitNative(shop: Awaited<ReturnType<typeof aShop>>) {
  counter += 1;
  const fields = { appId: shop.appId, merchantOrderNo: `CERT-${process.pid}-${counter}-${Date.now()}`, payType: 'WECHAT', payMethod: 'native', amount: '1.00', notifyUrl: 'https://merchant.example/n' };
  return (await bed.app.signedPost(SUBMIT, fields, shop.appSecret)).json;
}

async function orderStatus(orderNo: string): Promise<string> {
  const { rows } = await getDb().execute<{ status: string }>(sql`SELECT status FROM orders WHERE order_no = ${orderNo}`);
  return rows[0]!.status;
}

async function downloadedSerials(credentialId: number): Promise<string[]> {
  const { rows } = await getDb().execute<{ serial: string }>(sql`SELECT serial FROM wechat_platform_certificates WHERE credential_id = ${credentialId} ORDER BY effective_time`);
  return rows.map((row) => row.serial);
}

/** A signed merchant GET to the sandbox, with or without Wechatpay-Serial. */
async function sandboxGet(pathWithQuery: string, serial?: string) {
  const keys = await wechatSandboxCredentialInput(getDb());
  const authorization = authorizationHeader(
    { mchId: keys.mchId, serialNo: keys.merchantCertSerial, privateKey: keys.merchantPrivateKey },
    { method: 'GET', pathWithQuery, body: '', timestamp: Math.floor(Date.now() / 1000) },
  );
  const response = await fetch(`${bed.wechatSandboxUrl}${pathWithQuery}`, { headers: { authorization, ...(serial ? { 'wechatpay-serial': serial } : {}) } });
  return { status: response.status, serial: response.headers.get('wechatpay-serial'), json: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  bed = await startSandboxTestBed();
});
afterAll(() => bed.close());

describe('platform certificate mode', () => {
  it('the sandbox lists its certificates encrypted under the APIv3 key, signed by the newest; an unknown Wechatpay-Serial is INVALID_REQUEST', async () => {
    const keys = await setSandboxWechatMode(getDb(), 'certificate');
    const listed = await sandboxGet('/v3/certificates');
    expect(listed.status).toBe(200);
    expect(listed.serial).toBe(keys.platformCertificates[0]!.serial);
    expect(listed.json.data).toEqual([
      {
        serial_no: keys.platformCertificates[0]!.serial,
        effective_time: expect.stringMatching(/\+08:00$/),
        expire_time: expect.stringMatching(/\+08:00$/),
        encrypt_certificate: { algorithm: 'AEAD_AES_256_GCM', nonce: expect.any(String), associated_data: 'certificate', ciphertext: expect.any(String) },
      },
    ]);
    expect((await sandboxGet('/v3/pay/transactions/out-trade-no/W-NONE-1?mchid=1900000109', 'ABCDEF0123')).json).toMatchObject({ code: 'INVALID_REQUEST' });
    expect((await sandboxGet('/v3/pay/transactions/out-trade-no/W-NONE-1?mchid=1900000109', keys.platformPublicKeyId)).json).toMatchObject({ code: 'INVALID_REQUEST' });
    // No Wechatpay-Serial is fine in certificate mode: the answer is signed by the certificate.
    expect(await sandboxGet('/v3/pay/transactions/out-trade-no/W-NONE-1?mchid=1900000109')).toMatchObject({ status: 404, serial: keys.platformCertificates[0]!.serial });
  });

  it('downloads the certificates, then follows a rotation with no operator: answers and notifications signed by the new certificate verify', async () => {
    await setSandboxWechatMode(getDb(), 'certificate');
    const shop = await aShop();
    const first = await submitNative(shop);
    expect(first).toMatchObject({ code: 0 });
    const original = (await sandboxWechatKeysOf(getDb())).platformCertificates.map((certificate) => certificate.serial);
    expect(await downloadedSerials(shop.credentialId)).toEqual(original.map(normalizeSerial));

    const rotated = await rotateSandboxWechatCertificate(getDb());
    const newest = rotated.platformCertificates.at(-1)!.serial;
    const second = await submitNative(shop);
    expect(second).toMatchObject({ code: 0 });
    expect(await downloadedSerials(shop.credentialId)).toContain(normalizeSerial(newest));

    // The notification of the payment is signed by the new certificate, which the service now holds.
    await paySandboxWechatOrder(getDb(), { outTradeNo: second.data.platformOrderNo });
    expect(await orderStatus(second.data.platformOrderNo)).toBe('paid');
  });
});

describe('a merchant migrating to the WeChat Pay public key (both)', () => {
  it('the credential holds both; answers signed by the public key and notifications signed by the certificate verify', async () => {
    await setSandboxWechatMode(getDb(), 'both');
    const input = await wechatSandboxCredentialInput(getDb());
    expect(input).toMatchObject({ platformCertificate: expect.stringContaining('BEGIN CERTIFICATE'), wechatPayPublicKeyId: expect.stringMatching(/^PUB_KEY_ID_/) });
    const shop = await aShop();
    const created = await submitNative(shop);
    expect(created).toMatchObject({ code: 0 });
    const keys = await sandboxWechatKeysOf(getDb());
    expect((await sandboxGet('/v3/pay/transactions/out-trade-no/W-NONE-2?mchid=1900000109', keys.platformPublicKeyId)).serial).toBe(keys.platformPublicKeyId);
    expect((await sandboxGet('/v3/pay/transactions/out-trade-no/W-NONE-2?mchid=1900000109')).serial).toBe(keys.platformCertificates.at(-1)!.serial);
    await paySandboxWechatOrder(getDb(), { outTradeNo: created.data.platformOrderNo });
    expect(await orderStatus(created.data.platformOrderNo)).toBe('paid');
  });
});
