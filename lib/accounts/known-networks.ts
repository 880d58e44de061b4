import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accountSignInNetworks } from '../db/schema';
import { throttledClientOf } from './client-address';

/**
 * A network the account's owner signed in from before is the owner's as far as a guesser is concerned: an attacker
 * who floods the account's daily cap from fresh networks does not lock the owner out of the office or home network.
 * A network is what the throttle counts as one client (an IPv4 address, an IPv6 /64).
 */
export async function isKnownNetwork(db: Database, accountId: number, clientAddress: string): Promise<boolean> {
  const [row] = await db
    .select({ network: accountSignInNetworks.network })
    .from(accountSignInNetworks)
    .where(and(eq(accountSignInNetworks.accountId, accountId), eq(accountSignInNetworks.network, throttledClientOf(clientAddress))))
    .limit(1);
  return row !== undefined;
}

export async function rememberSignInNetwork(db: Database, accountId: number, clientAddress: string, now: Date): Promise<void> {
  await db
    .insert(accountSignInNetworks)
    .values({ accountId, network: throttledClientOf(clientAddress), firstSignedInAt: now, lastSignedInAt: now })
    .onConflictDoUpdate({ target: [accountSignInNetworks.accountId, accountSignInNetworks.network], set: { lastSignedInAt: sql`GREATEST(${accountSignInNetworks.lastSignedInAt}, ${now}::timestamptz)` } });
}
