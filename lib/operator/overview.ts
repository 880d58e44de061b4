import { count, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { merchants, receivingAddresses } from '../db/schema';
import { listAttention } from './attention';
import { countPendingCredentials } from './merchants';

/** The figures on the console's index: what waits for the operator in each section. */
export async function operatorOverview(db: Database) {
  const [[merchantTotals], [addressTotals], pendingCredentials, attention] = await Promise.all([
    db.select({ total: count() }).from(merchants),
    db.select({ total: count() }).from(receivingAddresses).where(eq(receivingAddresses.enabled, true)),
    countPendingCredentials(db),
    listAttention(db),
  ]);
  return {
    merchants: merchantTotals?.total ?? 0,
    enabledAddresses: addressTotals?.total ?? 0,
    pendingCredentials,
    attention: { transfers: attention.transfers.length, callbacks: attention.callbacks.length, notifications: attention.notifications.length },
  };
}
