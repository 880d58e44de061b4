import { DomainError } from '../../errors/domain-error';
import { generateKeyPairSync, randomBytes, randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { WechatCredentialInput } from './credential-form';
import type { Database } from '../../db/client';
import { sandboxWechatKeys, type SandboxWechatKeysRow } from './schema';
import { sandboxEnabled } from '../../sandbox/sandbox-enabled';

/**
 * The built-in WeChat Pay simulator's key material: generated once (RSA 2048 with node:crypto), stored in
 * sandbox_wechat_keys, shared by the simulator (sandbox/wechat/) and by the credential an operator adds for it
 * (`credential add --channel WECHAT --sandbox`). Lives here, not in sandbox/, because that credential is made by
 * production code paths (the CLI); it refuses to run where the sandbox is off.
 */

export const SANDBOX_KEYS_ID = 'default';
export const SANDBOX_WECHAT_MCH_ID = '1900000109';
export const SANDBOX_WECHAT_APP_ID = 'wxsandbox000000001';

export class WechatSandboxOff extends DomainError {
  constructor() {
    super('action_refused', { message: 'the WeChat sandbox is off here (NODE_ENV=production without SANDBOX_ENABLED=true)' });
    this.name = 'WechatSandboxOff';
  }
}

function rsaPair() {
  return generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function apiV3Key(): string {
  return Array.from({ length: 32 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');
}

/** The sandbox's keys, generated and stored on first use (concurrent first uses agree on one row). */
export async function sandboxWechatKeysOf(db: Database): Promise<SandboxWechatKeysRow> {
  if (!sandboxEnabled()) throw new WechatSandboxOff();
  const [existing] = await db.select().from(sandboxWechatKeys).where(eq(sandboxWechatKeys.id, SANDBOX_KEYS_ID)).limit(1);
  if (existing) return existing;
  const merchant = rsaPair();
  const platform = rsaPair();
  await db
    .insert(sandboxWechatKeys)
    .values({
      id: SANDBOX_KEYS_ID,
      mchId: SANDBOX_WECHAT_MCH_ID,
      appId: SANDBOX_WECHAT_APP_ID,
      merchantPrivateKey: merchant.privateKey,
      merchantPublicKey: merchant.publicKey,
      merchantCertSerial: randomBytes(20).toString('hex').toUpperCase(),
      platformPrivateKey: platform.privateKey,
      platformPublicKey: platform.publicKey,
      platformPublicKeyId: `PUB_KEY_ID_01${SANDBOX_WECHAT_MCH_ID}${randomInt(100_000_000, 999_999_999)}`,
      apiV3Key: apiV3Key(),
    })
    .onConflictDoNothing();
  const [row] = await db.select().from(sandboxWechatKeys).where(eq(sandboxWechatKeys.id, SANDBOX_KEYS_ID)).limit(1);
  return row!;
}

/**
 * What a merchant submits (lib/credentials' submitCredential) for a credential bound to the sandbox, in the simulator's mode
 * (`npm run sandbox -- wechat mode`): the WeChat Pay public key, the oldest platform certificate (newer ones are
 * downloaded from /v3/certificates, as with the real WeChat Pay), or both while migrating.
 */
export async function wechatSandboxCredentialInput(db: Database): Promise<WechatCredentialInput> {
  const keys = await sandboxWechatKeysOf(db);
  const certificate = keys.mode === 'public_key' ? undefined : keys.platformCertificates[0]?.certificatePem;
  const publicKey = keys.mode === 'certificate' ? {} : { wechatPayPublicKey: keys.platformPublicKey, wechatPayPublicKeyId: keys.platformPublicKeyId };
  return {
    appId: keys.appId,
    mchId: keys.mchId,
    merchantCertSerial: keys.merchantCertSerial,
    merchantPrivateKey: keys.merchantPrivateKey,
    apiV3Key: keys.apiV3Key,
    ...(certificate ? { platformCertificate: certificate } : {}),
    ...publicKey,
  };
}
