import { generateKeyPairSync, randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sandboxAlipayKeys, type SandboxAlipayKeysRow } from './schema';

/**
 * The Alipay simulator's keys, generated once and kept in the database so that the service, the CLIs and the tests
 * all use the same ones. Shared by the simulator (sandbox/alipay) and the operator CLI's `credential add --sandbox`
 * (which binds a merchant's ALIPAY credential to the sandbox application): it lives here, not in sandbox/, because
 * production code never imports the simulators.
 */
export type AlipaySandboxKeys = SandboxAlipayKeysRow;

/** The Alipay user id of the sandbox application's seller: notifications name it as seller_id, sandbox credentials record it. */
export const ALIPAY_SANDBOX_SELLER_ID = '2088102177296610';

function rsaPair() {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
}

/** Alipay app ids are 16 digits; the simulator's start with 9021 so that they read as sandbox ones. */
function sandboxAppId(): string {
  return `9021${String(randomInt(0, 1_000_000)).padStart(6, '0')}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
}

export async function alipaySandboxKeys(db: Database): Promise<AlipaySandboxKeys> {
  const [existing] = await db.select().from(sandboxAlipayKeys).where(eq(sandboxAlipayKeys.name, 'default')).limit(1);
  if (existing) return existing;
  const app = rsaPair();
  const alipay = rsaPair();
  // Two processes may generate at once: the first insert wins and both read it back.
  await db
    .insert(sandboxAlipayKeys)
    .values({
      name: 'default',
      appId: sandboxAppId(),
      appPrivateKey: app.privateKey,
      appPublicKey: app.publicKey,
      alipayPrivateKey: alipay.privateKey,
      alipayPublicKey: alipay.publicKey,
    })
    .onConflictDoNothing();
  const [row] = await db.select().from(sandboxAlipayKeys).where(eq(sandboxAlipayKeys.name, 'default')).limit(1);
  return row!;
}
