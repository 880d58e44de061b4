import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { upstreamCredentials } from '../db/schema';
import type { CredentialChannel } from './credentials';
import { usableCredentialOf, type UsableCredential } from './find-usable-credential';

/**
 * The credential an existing order is bound to, whatever its state now: a payment started on it must still be
 * verified (callbacks, the poller) and completed (checkout) with the same keys after the merchant disabled it.
 */
export async function findBoundCredential(
  db: Database,
  order: { merchantId: number; channel: string; credentialId: number | null },
): Promise<UsableCredential | undefined> {
  if (order.credentialId === null) return undefined;
  const [row] = await db
    .select()
    .from(upstreamCredentials)
    .where(
      and(
        eq(upstreamCredentials.id, order.credentialId),
        eq(upstreamCredentials.merchantId, order.merchantId),
        eq(upstreamCredentials.channel, order.channel as CredentialChannel),
      ),
    )
    .limit(1);
  return row ? usableCredentialOf(row) : undefined;
}
