import { and, desc, eq, isNull, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { upstreamCredentials, type UpstreamCredentialRow } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { encryptSecret } from '../crypto/secret-box';
import { CredentialActionRefused, CredentialNotFound } from './errors';
import {
  validateAlipayCredential,
  validateWechatCredential,
  type AlipayCredentialInput,
  type ValidAlipayCredential,
  type ValidWechatCredential,
  type WechatCredentialInput,
} from './validate-credential';

export type CredentialChannel = 'ALIPAY' | 'WECHAT';
export type ReviewStatus = 'pending' | 'approved' | 'rejected';

/** Who may touch a credential: its merchant (portal) or an operator (CLI, any merchant's). */
export type CredentialScope = { kind: 'merchant'; merchantId: number } | { kind: 'operator' };

/** A credential as it is listed and audited: never a secret, nor the (long) public keys. */
export interface CredentialSummary {
  id: number;
  merchantId: number;
  channel: CredentialChannel;
  upstreamAppId: string;
  /** ALIPAY: the merchant's Alipay user id when given (notifications must name it as seller_id). */
  sellerId: string | null;
  mchId: string | null;
  merchantCertSerial: string | null;
  /** WECHAT: how WeChat's signatures are verified. */
  wechatVerification: 'platform_certificate' | 'public_key' | null;
  upstreamPublicKeyId: string | null;
  reviewStatus: ReviewStatus;
  rejectionReason: string | null;
  enabled: boolean;
  /** Approved, enabled and not deleted: orders may use it. */
  usable: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export const REJECTION_REASON_MAX_LENGTH = 500;

export function summarize(row: UpstreamCredentialRow): CredentialSummary {
  const reviewStatus = row.reviewStatus as ReviewStatus;
  return {
    id: row.id,
    merchantId: row.merchantId,
    channel: row.channel as CredentialChannel,
    upstreamAppId: row.upstreamAppId,
    sellerId: row.sellerId,
    mchId: row.mchId,
    merchantCertSerial: row.merchantCertSerial,
    wechatVerification: row.channel !== 'WECHAT' ? null : row.platformCertificate ? 'platform_certificate' : 'public_key',
    upstreamPublicKeyId: row.upstreamPublicKeyId,
    reviewStatus,
    rejectionReason: row.rejectionReason,
    enabled: row.enabled,
    usable: reviewStatus === 'approved' && row.enabled && row.deletedAt === null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The audit view of a credential: state only. */
function auditState(row: UpstreamCredentialRow) {
  return { channel: row.channel, upstreamAppId: row.upstreamAppId, reviewStatus: row.reviewStatus, enabled: row.enabled, deleted: row.deletedAt !== null };
}

async function insertCredential(
  db: Database,
  input: { merchantId: number; actor: string; now: Date },
  valid: ValidAlipayCredential | ValidWechatCredential,
): Promise<CredentialSummary> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [row] = await tx
      .insert(upstreamCredentials)
      .values({
        merchantId: input.merchantId,
        channel: valid.channel,
        upstreamAppId: valid.upstreamAppId,
        privateKeyEncrypted: encryptSecret(valid.privateKey),
        upstreamPublicKey: valid.upstreamPublicKey,
        ...(valid.channel === 'ALIPAY' ? { sellerId: valid.sellerId } : {}),
        ...(valid.channel === 'WECHAT'
          ? {
              mchId: valid.mchId,
              merchantCertSerial: valid.merchantCertSerial,
              apiV3KeyEncrypted: encryptSecret(valid.apiV3Key),
              upstreamPublicKeyId: valid.upstreamPublicKeyId,
              platformCertificate: valid.platformCertificate,
            }
          : {}),
        reviewStatus: 'pending',
        enabled: true,
        createdAt: input.now,
        updatedAt: input.now,
      })
      .returning();
    await recordAudit(tx, { actor: input.actor, action: 'credential.submit', subject: `credential:${row!.id}`, after: { merchantId: input.merchantId, ...auditState(row!) } });
    return summarize(row!);
  });
}

/** Validates and stores an ALIPAY credential, pending review. Throws InvalidCredential naming the bad fields. */
export async function submitAlipayCredential(
  db: Database,
  input: { merchantId: number; actor: string; now: Date; credential: AlipayCredentialInput },
): Promise<CredentialSummary> {
  return insertCredential(db, input, validateAlipayCredential(input.credential));
}

/** Validates and stores a WECHAT API v3 credential, pending review. Throws InvalidCredential naming the bad fields. */
export async function submitWechatCredential(
  db: Database,
  input: { merchantId: number; actor: string; now: Date; credential: WechatCredentialInput },
): Promise<CredentialSummary> {
  return insertCredential(db, input, validateWechatCredential(input.credential, input.now));
}

/** Every merchant's credentials that are not deleted (the operator's review queue), optionally of one review status. */
export async function listAllCredentials(db: Database, filter: { reviewStatus?: ReviewStatus } = {}): Promise<CredentialSummary[]> {
  const rows = await db
    .select()
    .from(upstreamCredentials)
    .where(and(isNull(upstreamCredentials.deletedAt), filter.reviewStatus ? eq(upstreamCredentials.reviewStatus, filter.reviewStatus) : undefined))
    .orderBy(upstreamCredentials.id);
  return rows.map(summarize);
}

/** The merchant's credentials that are not deleted, newest first; no secret is ever read. */
export async function listMerchantCredentials(db: Database, merchantId: number): Promise<CredentialSummary[]> {
  const rows = await db
    .select()
    .from(upstreamCredentials)
    .where(and(eq(upstreamCredentials.merchantId, merchantId), isNull(upstreamCredentials.deletedAt)))
    .orderBy(desc(upstreamCredentials.id));
  return rows.map(summarize);
}

/**
 * Locks the credential within the scope (a merchant reaches only its own; nobody reaches a deleted one), applies
 * the change and writes the audit entry in one transaction.
 */
async function changeCredential(
  db: Database,
  input: { credentialId: number; scope: CredentialScope; actor: string; action: string; reason?: string; now: Date },
  change: (row: UpstreamCredentialRow) => Partial<typeof upstreamCredentials.$inferInsert>,
): Promise<CredentialSummary> {
  if (!Number.isSafeInteger(input.credentialId) || input.credentialId <= 0 || input.credentialId > 2_147_483_647) {
    throw new CredentialNotFound(input.credentialId);
  }
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const conditions: SQL[] = [eq(upstreamCredentials.id, input.credentialId), isNull(upstreamCredentials.deletedAt)];
    if (input.scope.kind === 'merchant') conditions.push(eq(upstreamCredentials.merchantId, input.scope.merchantId));
    const [before] = await tx
      .select()
      .from(upstreamCredentials)
      .where(and(...conditions))
      .for('update');
    if (!before) throw new CredentialNotFound(input.credentialId);
    const [after] = await tx
      .update(upstreamCredentials)
      .set({ ...change(before), updatedAt: input.now })
      .where(eq(upstreamCredentials.id, before.id))
      .returning();
    await recordAudit(tx, {
      actor: input.actor,
      action: input.action,
      subject: `credential:${before.id}`,
      reason: input.reason,
      before: auditState(before),
      after: auditState(after!),
    });
    return summarize(after!);
  });
}

/** Turns a credential on or off (its merchant in the portal, or an operator). */
export async function setCredentialEnabled(
  db: Database,
  input: { credentialId: number; scope: CredentialScope; enabled: boolean; actor: string; reason?: string; now: Date },
): Promise<CredentialSummary> {
  return changeCredential(db, { ...input, action: input.enabled ? 'credential.enable' : 'credential.disable' }, () => ({ enabled: input.enabled }));
}

/** Soft delete: the row stays (orders keep their credentialId), it is never usable nor listed again. */
export async function deleteCredential(
  db: Database,
  input: { credentialId: number; scope: CredentialScope; actor: string; reason?: string; now: Date },
): Promise<CredentialSummary> {
  return changeCredential(db, { ...input, action: 'credential.delete' }, () => ({ deletedAt: input.now }));
}

/** An operator's review: approve, or reject with a reason the merchant sees. */
export async function reviewCredential(
  db: Database,
  input: { credentialId: number; decision: 'approve' | 'reject'; reason?: string; actor: string; now: Date },
): Promise<CredentialSummary> {
  const reason = input.reason?.trim() ?? '';
  if (input.decision === 'reject' && reason === '') throw new CredentialActionRefused('a rejection needs a reason');
  if (reason.length > REJECTION_REASON_MAX_LENGTH) throw new CredentialActionRefused(`the reason must be at most ${REJECTION_REASON_MAX_LENGTH} characters`);
  return changeCredential(
    db,
    {
      credentialId: input.credentialId,
      scope: { kind: 'operator' },
      actor: input.actor,
      now: input.now,
      action: input.decision === 'approve' ? 'credential.approve' : 'credential.reject',
      reason: reason || undefined,
    },
    () => (input.decision === 'approve' ? { reviewStatus: 'approved', rejectionReason: null } : { reviewStatus: 'rejected', rejectionReason: reason }),
  );
}
