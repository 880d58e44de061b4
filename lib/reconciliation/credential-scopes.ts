import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { upstreamCredentials } from '../db/schema';
import type { ReconciliationScope } from './bill-source';

/**
 * One scope per upstream account of the channel (`accountOf` names it: the Alipay PID, the WeChat Pay merchant
 * number), with every approved credential on it, deleted or disabled ones too: their orders of the day still count.
 * A bill covers the whole account, so credentials sharing one read it once, asked with the newest credential in use
 * (enabled, not deleted; else the newest).
 */
export async function credentialScopes(db: Database, channel: string, accountOf: (row: { upstreamAppId: string; mchId: string | null; sellerId: string | null }) => string): Promise<ReconciliationScope[]> {
  const rows = await db
    .select({ id: upstreamCredentials.id, upstreamAppId: upstreamCredentials.upstreamAppId, mchId: upstreamCredentials.mchId, sellerId: upstreamCredentials.sellerId })
    .from(upstreamCredentials)
    .where(and(eq(upstreamCredentials.channel, channel), eq(upstreamCredentials.reviewStatus, 'approved')))
    .orderBy(desc(sql`${upstreamCredentials.enabled} AND ${upstreamCredentials.deletedAt} IS NULL`), desc(upstreamCredentials.id));
  const scopes = new Map<string, ReconciliationScope>();
  for (const row of rows) {
    const key = `account:${accountOf(row)}`;
    const scope = scopes.get(key) ?? { key, credentialId: row.id, credentialIds: [], chain: null };
    scope.credentialIds.push(row.id);
    scopes.set(key, scope);
  }
  return [...scopes.values()];
}
