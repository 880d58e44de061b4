import { inArray } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { chainEndpoints } from './schema';
import type { ChainEndpointHealth, EndpointStatus } from '../../channel-operator';
import { configuredChainEndpoints, endpointLabel } from './chain-config';

/**
 * The chain watcher's view of each configured TronGrid endpoint, in order of preference, as the watcher last saved
 * it: blocked by a rate limit (until when), failing (since when), fine, or not asked yet.
 */
export async function tronGridEndpointHealth(db: Database, now: Date, baseUrls: readonly string[] = configuredChainEndpoints()): Promise<ChainEndpointHealth[]> {
  const rows = baseUrls.length === 0 ? [] : await db.select().from(chainEndpoints).where(inArray(chainEndpoints.baseUrl, [...baseUrls]));
  return baseUrls.map((baseUrl) => {
    const row = rows.find((candidate) => candidate.baseUrl === baseUrl);
    const blocked = row?.blockedUntil && row.blockedUntil.getTime() > now.getTime() ? row.blockedUntil : null;
    const status: EndpointStatus = blocked ? 'blocked' : row?.failingSince ? 'failing' : row?.lastOkAt ? 'ok' : 'unused';
    return {
      label: endpointLabel(baseUrl),
      status,
      blockedUntil: blocked,
      failingSince: row?.failingSince ?? null,
      lastError: row?.lastError ?? null,
      lastErrorAt: row?.lastErrorAt ?? null,
      lastOkAt: row?.lastOkAt ?? null,
    };
  });
}
