import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { upstreamCredentials, type UpstreamCredentialRow } from '../db/schema';
import { decryptSecret } from '../crypto/secret-box';
import type { CredentialChannel } from './credentials';

/** A credential an order may use, with its secrets decrypted (for the upstream adapters only; never logged). */
export interface UsableCredential {
  id: number;
  merchantId: number;
  channel: CredentialChannel;
  upstreamAppId: string;
  privateKey: string;
  upstreamPublicKey: string | null;
  /** The merchant's user id at the upstream, when the credential records it (notifications must name it as the seller). */
  sellerId: string | null;
  mchId: string | null;
  merchantCertSerial: string | null;
  apiV3Key: string | null;
  platformCertificate: string | null;
  upstreamPublicKeyId: string | null;
}

/**
 * The contract's rule (error 1009 when undefined): a credential is usable only when it is approved, enabled, not
 * deleted and belongs to the authenticated merchant, for the order's channel. With a `credentialId`, that one or
 * nothing; without, the usable one with the greatest id.
 */
export async function findUsableCredential(
  db: Database,
  merchantId: number,
  channel: string,
  credentialId?: number,
): Promise<UsableCredential | undefined> {
  if (credentialId !== undefined && (!Number.isSafeInteger(credentialId) || credentialId <= 0 || credentialId > 2_147_483_647)) return undefined;
  const [row] = await db
    .select()
    .from(upstreamCredentials)
    .where(
      and(
        eq(upstreamCredentials.merchantId, merchantId),
        eq(upstreamCredentials.channel, channel),
        eq(upstreamCredentials.reviewStatus, 'approved'),
        eq(upstreamCredentials.enabled, true),
        isNull(upstreamCredentials.deletedAt),
        credentialId === undefined ? undefined : eq(upstreamCredentials.id, credentialId),
      ),
    )
    .orderBy(desc(upstreamCredentials.id))
    .limit(1);
  return row ? usableCredentialOf(row) : undefined;
}

/** A credential row with its secrets decrypted (for the upstream adapters only; never logged). */
export function usableCredentialOf(row: UpstreamCredentialRow): UsableCredential {
  return {
    id: row.id,
    merchantId: row.merchantId,
    channel: row.channel as CredentialChannel,
    upstreamAppId: row.upstreamAppId,
    privateKey: decryptSecret(row.privateKeyEncrypted),
    upstreamPublicKey: row.upstreamPublicKey,
    sellerId: row.sellerId,
    mchId: row.mchId,
    merchantCertSerial: row.merchantCertSerial,
    apiV3Key: row.apiV3KeyEncrypted === null ? null : decryptSecret(row.apiV3KeyEncrypted),
    platformCertificate: row.platformCertificate,
    upstreamPublicKeyId: row.upstreamPublicKeyId,
  };
}
