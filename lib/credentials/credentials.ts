import { and, desc, eq, isNull, type SQL } from 'drizzle-orm';
import { actionRefused } from '../errors/domain-error';
import { credentialNotFound } from './errors';
import type { Database } from '../db/client';
import { upstreamCredentials, type UpstreamCredentialRow } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { encryptSecret } from '../crypto/secret-box';
import type { ChannelCredentials, CredentialColumns } from './channel-credentials';
import { REJECTION_REASON_MAX_LENGTH } from './review-rules';

/** The name of a channel whose orders use the merchant's own credentials (lib/channels/index.ts credentialChannels). */
export type CredentialChannel = string;

/**
 * The part of a channel a credential is submitted to: its name and its rules for the fields
 * (lib/channels/<name>/credentials.ts). The caller takes it from the registry (credentialChannelNamed).
 */
export interface CredentialChannelRules {
  readonly name: CredentialChannel;
  readonly credentials: Pick<ChannelCredentials, 'validate'>;
}

export type ReviewStatus = 'pending' | 'approved' | 'rejected';

/** Who may touch a credential: its merchant (portal) or an operator (CLI, any merchant's). */
export type CredentialScope = { kind: 'merchant'; merchantId: number } | { kind: 'operator' };

/**
 * A credential as it is listed and audited: never a secret, nor the (long) public keys. Its fields are those its
 * channel describes it by (StoredCredentialFields), so a page shows it as one line with the registry's
 * describeCredential.
 */
export interface CredentialSummary {
  id: number;
  merchantId: number;
  channel: CredentialChannel;
  upstreamAppId: string;
  /** The merchant's user id at the upstream when given (notifications must name it as the seller). */
  sellerId: string | null;
  mchId: string | null;
  merchantCertSerial: string | null;
  /** How the upstream's signatures are verified, for a channel that verifies with its certificate or a public key id. */
  wechatVerification: 'platform_certificate' | 'public_key' | null;
  upstreamPublicKeyId: string | null;
  /** Whether a platform certificate is stored (the certificate itself is never listed). */
  platformCertificate: boolean;
  reviewStatus: ReviewStatus;
  rejectionReason: string | null;
  enabled: boolean;
  /** Approved, enabled and not deleted: orders may use it. */
  usable: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export { REJECTION_REASON_MAX_LENGTH };

export function summarize(row: UpstreamCredentialRow): CredentialSummary {
  const reviewStatus = row.reviewStatus as ReviewStatus;
  return {
    id: row.id,
    merchantId: row.merchantId,
    channel: row.channel,
    upstreamAppId: row.upstreamAppId,
    sellerId: row.sellerId,
    mchId: row.mchId,
    merchantCertSerial: row.merchantCertSerial,
    wechatVerification: row.platformCertificate ? 'platform_certificate' : row.upstreamPublicKeyId ? 'public_key' : null,
    upstreamPublicKeyId: row.upstreamPublicKeyId,
    platformCertificate: row.platformCertificate !== null,
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

/**
 * Validates a credential by its channel's rules and stores it for that channel, pending review, its secrets
 * encrypted. Throws an invalid_credential DomainError naming the bad fields.
 */
export async function submitCredential(
  db: Database,
  channel: CredentialChannelRules,
  input: { merchantId: number; actor: string; now: Date; credential: object },
): Promise<CredentialSummary> {
  const valid: CredentialColumns = channel.credentials.validate(input.credential as Readonly<Record<string, unknown>>, input.now);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [row] = await tx
      .insert(upstreamCredentials)
      .values({
        merchantId: input.merchantId,
        channel: channel.name,
        upstreamAppId: valid.upstreamAppId,
        privateKeyEncrypted: encryptSecret(valid.privateKey),
        upstreamPublicKey: valid.upstreamPublicKey,
        sellerId: valid.sellerId ?? null,
        mchId: valid.mchId ?? null,
        merchantCertSerial: valid.merchantCertSerial ?? null,
        apiV3KeyEncrypted: valid.apiV3Key ? encryptSecret(valid.apiV3Key) : null,
        upstreamPublicKeyId: valid.upstreamPublicKeyId ?? null,
        platformCertificate: valid.platformCertificate ?? null,
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
    throw credentialNotFound(input.credentialId);
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
    if (!before) throw credentialNotFound(input.credentialId);
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
  if (input.decision === 'reject' && reason === '') throw actionRefused('a rejection needs a reason');
  if (reason.length > REJECTION_REASON_MAX_LENGTH) throw actionRefused(`the reason must be at most ${REJECTION_REASON_MAX_LENGTH} characters`);
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
