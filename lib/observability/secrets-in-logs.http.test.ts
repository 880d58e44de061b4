import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAccount } from '../accounts/authenticate-account';
import { createAccount } from '../accounts/accounts';
import { closeDb, getDb } from '../db/client';
import { credentialChannelNamed } from '../channels';
import { submitCredential } from '../credentials/credentials';
import { debugMerchantSignature } from '../portal/signature-debugger';
import { aMerchant, aWechatCredential, receivingAddresses } from '../../test/factories';
import { anAlipayCredential, rsaKeyPair } from '../../test/credential-keys';
import { SUBMIT, startSandboxTestBed } from '../../test/beds/sandboxes';
import { yhtSubmit } from '../../test/yht-sandbox';
import { closedPort } from '../../test/unconnectable-host';
import { captureLog } from '../../test/captured-log';
import { log } from './logger';
import { logFailure } from '../callers/log-failure';

/**
 * Secrets sent through every path that logs (refused submits, upstream calls made with a merchant's private key,
 * credential saves, sign-in failures, the signature debugger, a database outage, unexpected failures) never reach the
 * output: neither the service's log nor anything else written to stdout or stderr.
 */
let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let captured: ReturnType<typeof captureLog>;
const secrets: string[] = [];
/** A secret of the test: remembered, so the output is searched for it (a PEM key by its body, whatever the line breaks). */
function secret<T extends string>(value: T): T {
  secrets.push(value.includes('PRIVATE KEY') ? value.split('\n').filter((line) => line && !line.startsWith('-----'))[0]! : value);
  return value;
}

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await aMerchant();
  secret(merchant.appSecret);
  await receivingAddresses(1);
  captured = captureLog();
});
afterAll(async () => {
  captured.stop();
  await bed.close();
});

function expectNoSecretLogged(): void {
  const output = captured.text();
  for (const value of secrets) expect(output, `a secret reached the log: ${value.slice(0, 6)}…`).not.toContain(value);
}

describe('secrets never reach the log', () => {
  it('a submit with a bad signature carrying the AppSecret, a password and a private key in its fields', async () => {
    const key = secret(rsaKeyPair().privateKey);
    const fields = yhtSubmit(merchant.appId, { appSecret: merchant.appSecret, attach: `password=${secret('hunter2-correct-horse')}`, productDesc: key });
    const { json } = await bed.app.post(SUBMIT, { ...fields, signature: 'F'.repeat(32) });
    expect(json.code).toBe(1002);
    expectNoSecretLogged();
  });

  it('an upstream call signed with the merchant private key, failing (logged as unreachable and as a failed create)', async () => {
    const credential = await aWechatCredential(merchant.id);
    secret(credential.privateKey!);
    secret(credential.apiV3Key!);
    const previous = process.env.WECHAT_API_BASE_URL;
    process.env.WECHAT_API_BASE_URL = `http://127.0.0.1:${await closedPort()}`;
    try {
      const fields = { appId: merchant.appId, merchantOrderNo: `S-${Date.now()}`, payType: 'WECHAT', payMethod: 'native', amount: '9.90', notifyUrl: 'https://merchant.example/n' };
      const { json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
      expect(json.code).not.toBe(0);
    } finally {
      process.env.WECHAT_API_BASE_URL = previous;
    }
    expect(captured.entries().some((entry) => entry.component === 'upstream' && entry.outcome === 'unreachable')).toBe(true);
    expectNoSecretLogged();
  });

  it('credential saves (valid and refused), a failed sign-in and the signature debugger', async () => {
    const alipay = anAlipayCredential();
    secret(alipay.appPrivateKey);
    await submitCredential(getDb(), credentialChannelNamed('ALIPAY'), { merchantId: merchant.id, actor: 'test', now: new Date(), credential: alipay });
    const broken = { ...anAlipayCredential(), appPrivateKey: secret(`-----BEGIN PRIVATE KEY-----\nMIIE${randomBytes(60).toString('base64')}\n-----END PRIVATE KEY-----`) };
    await expect(submitCredential(getDb(), credentialChannelNamed('ALIPAY'), { merchantId: merchant.id, actor: 'test', now: new Date(), credential: broken })).rejects.toThrow();

    const email = `secret-${randomBytes(4).toString('hex')}@example.com`;
    await createAccount(getDb(), { email, password: secret('the right long password'), role: 'merchant' });
    const wrong = await authenticateAccount(getDb(), { email, password: secret('a wrong guess of a password'), clientAddress: '192.0.2.1', now: new Date() });
    expect(wrong.ok).toBe(false);

    const debugged = await debugMerchantSignature(getDb(), { accountId: 0, email: 'm@example.com', merchantId: merchant.id, appId: merchant.appId, merchantName: 'Test merchant' } as never, { body: JSON.stringify({ appId: merchant.appId, appSecret: merchant.appSecret, signature: 'x' }) });
    expect(debugged.verdict).toBe('mismatch');
    expectNoSecretLogged();
  });

  it('unexpected failures whose messages carry secrets, and log fields named after secrets', async () => {
    const key = secret(rsaKeyPair().privateKey);
    const token = secret(randomBytes(24).toString('base64url'));
    const databasePassword = secret(`pw-${randomBytes(8).toString('hex')}`);
    logFailure('test', new Error(`signing failed with ${key} for appSecret=${merchant.appSecret}`));
    logFailure('test', new Error(`cannot reach postgres://svc:${databasePassword}@db.internal:5432/pay (Authorization: Bearer ${token})`));
    log().warn({ appSecret: merchant.appSecret, credential: { privateKey: key, apiKey: token }, headers: { authorization: `Bearer ${token}` }, password: databasePassword }, 'fields');
    log().info(`an AppSecret in JSON: {"appSecret":"${merchant.appSecret}"}`);
    expect(captured.text()).toContain('[redacted');
    expectNoSecretLogged();
  });

  it('a database outage: one line when it goes, none per failing request, and the connection password never', async () => {
    const password = secret(`dbpw-${randomBytes(8).toString('hex')}`);
    const real = process.env.DATABASE_URL;
    await closeDb();
    process.env.DATABASE_URL = `postgres://payments:${password}@127.0.0.1:${await closedPort()}/nowhere`;
    const before = captured.lines.length;
    try {
      for (let index = 0; index < 20; index += 1) {
        const { status } = await bed.app.signedPost(SUBMIT, yhtSubmit(merchant.appId), merchant.appSecret);
        expect(status).toBe(503);
      }
    } finally {
      await closeDb();
      process.env.DATABASE_URL = real;
    }
    const during = captured.lines.slice(before);
    expect(during.filter((line) => line.includes('database unreachable'))).toHaveLength(1);
    expect(during.join('\n')).not.toMatch(/INSERT|SELECT|params:/);
    expectNoSecretLogged();
  });
});
