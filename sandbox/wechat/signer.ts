import { eq } from 'drizzle-orm';
import type { Database } from '@/lib/db/client';
import { sandboxWechatKeys, type SandboxWechatKeysRow } from '@/lib/channels/wechat/schema';
import { sandboxWechatKeysOf } from '@/lib/channels/wechat/sandbox-keys';
import { newPlatformCertificate } from './certificate';

/**
 * Which key the simulated WeChat Pay signs with, as WeChat decides it for a merchant:
 * - 'public_key' (new merchants): the WeChat Pay public key; every request must name it in `Wechatpay-Serial`.
 * - 'certificate': the newest platform certificate; a `Wechatpay-Serial` sent must name a current certificate.
 * - 'both' (migrating): the key the request's `Wechatpay-Serial` names; without one, the platform certificate (as
 *   merchants report WeChat still does mid-migration), and notifications are signed with the certificate.
 * A `Wechatpay-Serial` naming no key of the merchant is 400 INVALID_REQUEST.
 */

export const SANDBOX_WECHAT_MODES = ['public_key', 'certificate', 'both'] as const;
export type SandboxWechatMode = (typeof SANDBOX_WECHAT_MODES)[number];

export interface PlatformSigner {
  privateKey: string;
  serial: string;
}

function publicKeySigner(keys: SandboxWechatKeysRow): PlatformSigner {
  return { privateKey: keys.platformPrivateKey, serial: keys.platformPublicKeyId };
}

function newestCertificateSigner(keys: SandboxWechatKeysRow): PlatformSigner | undefined {
  const newest = keys.platformCertificates.at(-1);
  return newest ? { privateKey: newest.privateKeyPem, serial: newest.serial } : undefined;
}

function certificateSerial(keys: SandboxWechatKeysRow, serial: string): boolean {
  return keys.platformCertificates.some((certificate) => certificate.serial === serial.toUpperCase().replace(/^0+(?=.)/, ''));
}

/** The signer of notifications and of answers given before a request is known (e.g. a bad Authorization). */
export function defaultSigner(keys: SandboxWechatKeysRow): PlatformSigner {
  return keys.mode === 'public_key' ? publicKeySigner(keys) : (newestCertificateSigner(keys) ?? publicKeySigner(keys));
}

/** The signer of the answer to an authenticated request, or why its `Wechatpay-Serial` is refused. */
export function answerSigner(keys: SandboxWechatKeysRow, requestSerial: string | null, options: { serialOptional?: boolean } = {}): PlatformSigner | { refusal: string } {
  const serial = requestSerial?.trim() || undefined;
  if (serial === undefined) {
    if (keys.mode === 'public_key' && !options.serialOptional) return { refusal: 'Wechatpay-Serial header is required: the WeChat Pay public key ID (PUB_KEY_ID_…)' };
    return defaultSigner(keys);
  }
  if (keys.mode !== 'certificate' && serial === keys.platformPublicKeyId) return publicKeySigner(keys);
  if (keys.mode !== 'public_key' && certificateSerial(keys, serial)) return newestCertificateSigner(keys)!;
  return { refusal: `Wechatpay-Serial ${serial.slice(0, 64)} names no WeChat Pay public key or platform certificate of this merchant` };
}

/** Switches the simulated merchant's mode; certificate modes get a first platform certificate when there is none. */
export async function setSandboxWechatMode(db: Database, mode: SandboxWechatMode, now = new Date()): Promise<SandboxWechatKeysRow> {
  const keys = await sandboxWechatKeysOf(db);
  const certificates = mode !== 'public_key' && keys.platformCertificates.length === 0 ? [newPlatformCertificate(now)] : keys.platformCertificates;
  const [row] = await db.update(sandboxWechatKeys).set({ mode, platformCertificates: certificates }).where(eq(sandboxWechatKeys.id, keys.id)).returning();
  return row!;
}

/**
 * WeChat's rotation: a new platform certificate is issued and signs from now on; the previous one stays listed (and
 * verifiable) through the overlap. Only the two newest are kept.
 */
export async function rotateSandboxWechatCertificate(db: Database, now = new Date()): Promise<SandboxWechatKeysRow> {
  const keys = await sandboxWechatKeysOf(db);
  const certificates = [...keys.platformCertificates, newPlatformCertificate(now)].slice(-2);
  const [row] = await db.update(sandboxWechatKeys).set({ platformCertificates: certificates }).where(eq(sandboxWechatKeys.id, keys.id)).returning();
  return row!;
}
