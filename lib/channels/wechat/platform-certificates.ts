import { X509Certificate } from 'node:crypto';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { wechatPlatformCertificates } from './schema';
import { wechatAccountOf, type StoredWechatCredential, type WechatAccount } from './account';
import { callWechat, parseWechatTime, WechatUpstreamError } from './client';
import type { WechatConfig } from './config';
import { decryptResource, normalizeSerial, ResourceDecryptionFailed, wechatVerifier, type WechatVerifier } from './signing';
import { log } from '../../observability/logger';

/**
 * Platform certificate mode: WeChat rotates its platform certificates (a new one about 10 days before the old one
 * expires, signing with either for the last 5), so the adapter downloads them from `GET /v3/certificates`
 * (each encrypted under the APIv3 key; the answer signed by one of them) and keeps them in
 * wechat_platform_certificates for every process. A rotation thus needs no operator.
 */

/** Downloaded again when the last download is older than this (wechatpay-go's downloader: every 24 h). */
export const CERTIFICATE_REFRESH_MS = 12 * 3600_000;
/** An answer naming an unknown serial downloads again at most this often per credential. */
const UNKNOWN_SERIAL_RETRY_MS = 60_000;
const lastOnDemandDownload = new Map<number, number>();

const certificateListSchema = z.object({
  data: z
    .array(
      z.object({
        serial_no: z.string().regex(/^[0-9A-Fa-f]{1,64}$/),
        effective_time: z.string(),
        expire_time: z.string(),
        encrypt_certificate: z.object({ algorithm: z.string(), nonce: z.string(), associated_data: z.string().optional(), ciphertext: z.string() }),
      }),
    )
    .min(1)
    .max(20),
});

interface DownloadedCertificate {
  serial: string;
  pem: string;
  effectiveTime: Date;
  expireTime: Date;
}

/** Decrypts and checks each listed certificate: its serial must be the one listed beside it. */
function readCertificateList(json: unknown, apiV3Key: string): DownloadedCertificate[] {
  const parsed = certificateListSchema.safeParse(json);
  if (!parsed.success) throw new WechatUpstreamError('WeChat Pay answer lacks a readable certificate list');
  return parsed.data.data.map((entry) => {
    let pem: string;
    let certificate: X509Certificate;
    try {
      pem = decryptResource(entry.encrypt_certificate, apiV3Key);
      certificate = new X509Certificate(pem);
    } catch (error) {
      const reason = error instanceof ResourceDecryptionFailed ? error.message : 'not an X.509 certificate';
      throw new WechatUpstreamError(`WeChat Pay platform certificate ${entry.serial_no.slice(0, 64)}: ${reason}`);
    }
    const serial = normalizeSerial(entry.serial_no);
    if (normalizeSerial(certificate.serialNumber) !== serial) throw new WechatUpstreamError(`WeChat Pay platform certificate ${serial} carries another serial`);
    const effectiveTime = parseWechatTime(entry.effective_time) ?? new Date(certificate.validFrom);
    const expireTime = parseWechatTime(entry.expire_time) ?? new Date(certificate.validTo);
    return { serial, pem, effectiveTime, expireTime };
  });
}

/**
 * `GET /v3/certificates`: the list is decrypted with the APIv3 key (GCM authenticates it), then the answer's signature
 * must verify with a key we already hold or with one of the listed certificates (how a first download bootstraps).
 */
export async function downloadPlatformCertificates(config: WechatConfig, account: WechatAccount): Promise<DownloadedCertificate[]> {
  let listed: DownloadedCertificate[] = [];
  await callWechat(config, account, {
    operation: 'certificates',
    method: 'GET',
    pathWithQuery: '/v3/certificates',
    // As WeChat's SDKs download: before the list is known there is no serial to ask for.
    withoutAcceptSerial: true,
    verifierFor(json): WechatVerifier {
      listed = readCertificateList(json, account.apiV3Key);
      const fresh = wechatVerifier({ downloadedCertificates: listed.map((certificate) => certificate.pem) });
      return { ...account.verifier, certificates: [...account.verifier.certificates, ...fresh.certificates] };
    },
  });
  return listed;
}

/** The downloaded certificates of a credential that have not expired, oldest first, and when they were last fetched. */
async function storedCertificates(db: Database, credentialId: number, now: Date): Promise<{ pems: string[]; fetchedAt?: Date }> {
  const rows = await db
    .select()
    .from(wechatPlatformCertificates)
    .where(and(eq(wechatPlatformCertificates.credentialId, credentialId), gt(wechatPlatformCertificates.expireTime, now)))
    .orderBy(asc(wechatPlatformCertificates.effectiveTime));
  const fetchedAt = rows.reduce<Date | undefined>((latest, row) => (!latest || row.fetchedAt > latest ? row.fetchedAt : latest), undefined);
  return { pems: rows.map((row) => row.certificatePem), fetchedAt };
}

/** Downloads and stores a credential's certificates; answers all it now knows, oldest first. */
export async function refreshPlatformCertificates(db: Database, config: WechatConfig, account: WechatAccount, now = new Date()): Promise<string[]> {
  const listed = await downloadPlatformCertificates(config, account);
  await db
    .insert(wechatPlatformCertificates)
    .values(listed.map((certificate) => ({ credentialId: account.credentialId, serial: certificate.serial, certificatePem: certificate.pem, effectiveTime: certificate.effectiveTime, expireTime: certificate.expireTime, fetchedAt: now })))
    .onConflictDoUpdate({ target: [wechatPlatformCertificates.credentialId, wechatPlatformCertificates.serial], set: { fetchedAt: sql`excluded.fetched_at` } });
  return (await storedCertificates(db, account.credentialId, now)).pems;
}

/**
 * The account of a credential with every platform certificate known for it. In certificate mode (the credential
 * holds a platform certificate) the list is downloaded when none was in CERTIFICATE_REFRESH_MS, and again on demand
 * when an answer names an unknown serial. A failed download is logged; what is known still verifies.
 */
export async function wechatAccountFor(db: Database, credential: StoredWechatCredential, config: WechatConfig, now = new Date()): Promise<WechatAccount> {
  // Only certificate mode downloads certificates: a public-key credential has none stored, so none to read.
  if (!credential.platformCertificate) return wechatAccountOf(credential);
  const stored = await storedCertificates(db, credential.id, now);
  let account = wechatAccountOf(credential, stored.pems);
  const tryDownload = async (): Promise<WechatAccount | undefined> => {
    try {
      return wechatAccountOf(credential, await refreshPlatformCertificates(db, config, account, new Date()));
    } catch (error) {
      log().error({ component: 'wechat' }, `wechat: downloading the platform certificates of credential ${credential.id} failed: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  };
  if (!stored.fetchedAt || now.getTime() - stored.fetchedAt.getTime() > CERTIFICATE_REFRESH_MS) {
    account = (await tryDownload()) ?? account;
  }
  account.refreshVerifier = async () => {
    const last = lastOnDemandDownload.get(credential.id) ?? 0;
    if (Date.now() - last < UNKNOWN_SERIAL_RETRY_MS) return undefined;
    lastOnDemandDownload.set(credential.id, Date.now());
    return (await tryDownload())?.verifier;
  };
  return account;
}
