import { and, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { upstreamCredentials, type UpstreamCredentialRow } from '../../db/schema';
import { wechatPlatformCertificates } from './schema';
import { decryptSecret } from '../../crypto/secret-box';
import { normalizeSerial, wechatVerifier, type WechatVerifier } from './signing';

/** A WECHAT credential that may have signed (WeChat's side) a notification: its ids, verifier and APIv3 key. */
export interface CallbackCandidate {
  credentialId: number;
  appId: string;
  mchId: string | null;
  verifier: WechatVerifier;
  /** Decrypted only once the candidate's key verified the signature. */
  apiV3Key(): string | undefined;
}

/** Serials of stored platform certificates, by credential id and update time (certificates are parsed once). */
const certificateSerials = new Map<string, string | undefined>();

function certificateSerial(row: UpstreamCredentialRow): string | undefined {
  const cacheKey = `${row.id}:${row.updatedAt.getTime()}`;
  if (!certificateSerials.has(cacheKey)) {
    let serial: string | undefined;
    try {
      serial = wechatVerifier({ platformCertificate: row.platformCertificate }).certificates[0]?.serial;
    } catch {
      serial = undefined;
    }
    if (certificateSerials.size > 10_000) certificateSerials.clear();
    certificateSerials.set(cacheKey, serial);
  }
  return certificateSerials.get(cacheKey);
}

/**
 * The credentials whose WeChat key `Wechatpay-Serial` names: a `PUB_KEY_ID_…` matches the stored public key id; a
 * certificate serial matches a stored platform certificate or one downloaded for the credential since (a rotation). A notification's resource is encrypted under a
 * credential's APIv3 key, so the order cannot be known before one of these keys has verified and decrypted it.
 * Disabled or deleted credentials stay candidates: a payment made while they were usable is still real.
 */
export async function callbackCandidates(db: Database, serial: string): Promise<CallbackCandidate[]> {
  if (!/^[0-9A-Za-z_-]{1,128}$/.test(serial)) return [];
  const byPublicKey = serial.startsWith('PUB_KEY_ID_');
  const rows = await db
    .select()
    .from(upstreamCredentials)
    .where(
      and(
        eq(upstreamCredentials.channel, 'WECHAT'),
        byPublicKey ? eq(upstreamCredentials.upstreamPublicKeyId, serial) : isNotNull(upstreamCredentials.platformCertificate),
      ),
    );
  const wanted = byPublicKey ? undefined : normalizeSerial(serial);
  const downloaded = new Map<number, string>();
  if (wanted !== undefined) {
    const found = await db.select().from(wechatPlatformCertificates).where(eq(wechatPlatformCertificates.serial, wanted));
    for (const certificate of found) downloaded.set(certificate.credentialId, certificate.certificatePem);
  }
  const candidates: CallbackCandidate[] = [];
  for (const row of rows) {
    if (wanted !== undefined && certificateSerial(row) !== wanted && !downloaded.has(row.id)) continue;
    let verifier: WechatVerifier;
    try {
      const downloadedCertificates = downloaded.has(row.id) ? [downloaded.get(row.id)!] : [];
      verifier = wechatVerifier({ platformCertificate: row.platformCertificate, downloadedCertificates, publicKey: row.upstreamPublicKey, publicKeyId: row.upstreamPublicKeyId });
    } catch {
      continue;
    }
    candidates.push({
      credentialId: row.id,
      appId: row.upstreamAppId,
      mchId: row.mchId,
      verifier,
      apiV3Key: () => (row.apiV3KeyEncrypted === null ? undefined : decryptSecret(row.apiV3KeyEncrypted)),
    });
  }
  return candidates;
}
