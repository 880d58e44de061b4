import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { merchants, upstreamCredentials } from '../db/schema';
import { summarize, type CredentialSummary, type ReviewStatus } from '../credentials/credentials';

export const REVIEW_STATUSES: readonly ReviewStatus[] = ['pending', 'approved', 'rejected'];

const QUEUE_LIMIT = 200;

export interface QueuedCredential extends CredentialSummary {
  merchantAppId: string;
  merchantName: string;
}

/**
 * The review queue: every merchant's credentials that are not deleted, pending ones first (oldest first: reviewed in
 * the order they came), then the others newest first. Summaries only: never a private key nor the APIv3 key.
 */
export async function listCredentialQueue(db: Database, filter: { reviewStatus?: ReviewStatus } = {}): Promise<QueuedCredential[]> {
  const pending = sql`${upstreamCredentials.reviewStatus} = 'pending'`;
  const rows = await db
    .select({ credential: upstreamCredentials, merchantAppId: merchants.appId, merchantName: merchants.name })
    .from(upstreamCredentials)
    .innerJoin(merchants, eq(merchants.id, upstreamCredentials.merchantId))
    .where(and(isNull(upstreamCredentials.deletedAt), filter.reviewStatus ? eq(upstreamCredentials.reviewStatus, filter.reviewStatus) : undefined))
    .orderBy(sql`CASE WHEN ${pending} THEN 0 ELSE 1 END`, sql`CASE WHEN ${pending} THEN ${upstreamCredentials.id} END ASC`, sql`${upstreamCredentials.id} DESC`)
    .limit(QUEUE_LIMIT);
  return rows.map((row) => ({ ...summarize(row.credential), merchantAppId: row.merchantAppId, merchantName: row.merchantName }));
}
