import { cookies, headers } from 'next/headers';
import type { Database } from '@/lib/db/client';
import { getReadDb } from '@/lib/db/read-db';
import { mustReadPrimary, READ_PRIMARY_COOKIE, READ_PRIMARY_HEADER } from '@/lib/db/read-your-writes';

/**
 * The database a back-office page reads its lists, dashboards and reconciliation views from: the replica when there is
 * one within its max lag, the primary when this person has just written (read-your-writes) or the replica lags.
 * Server actions and every write keep getDb(): the primary.
 */
export async function backOfficeDb(): Promise<Database> {
  const [requestHeaders, requestCookies] = await Promise.all([headers(), cookies()]);
  return getReadDb({ readPrimary: mustReadPrimary({ header: requestHeaders.get(READ_PRIMARY_HEADER), cookie: requestCookies.get(READ_PRIMARY_COOKIE)?.value, now: Date.now() }) });
}
