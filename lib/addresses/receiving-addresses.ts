import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders, receivingAddresses } from '../db/schema';
import { isTronAddress } from '../tron/address';

export const SUPPORTED_CHAINS = ['TRC20'] as const;
export type Chain = (typeof SUPPORTED_CHAINS)[number];

export class InvalidReceivingAddress extends Error {}

/** Adds an address to the pool; adding one that is already there returns it unchanged (idempotent). */
export async function addReceivingAddress(db: Database, chain: string, address: string) {
  if (!SUPPORTED_CHAINS.includes(chain as Chain)) throw new InvalidReceivingAddress(`chain must be one of ${SUPPORTED_CHAINS.join(', ')}`);
  if (!isTronAddress(address)) throw new InvalidReceivingAddress(`${address} is not a valid TRON address (base58check)`);
  const [inserted] = await db.insert(receivingAddresses).values({ chain, address }).onConflictDoNothing().returning();
  if (inserted) return { address: inserted, created: true };
  const [existing] = await db
    .select()
    .from(receivingAddresses)
    .where(and(eq(receivingAddresses.chain, chain), eq(receivingAddresses.address, address)));
  return { address: existing!, created: false };
}

export async function listReceivingAddresses(db: Database) {
  return db
    .select({
      id: receivingAddresses.id,
      chain: receivingAddresses.chain,
      address: receivingAddresses.address,
      enabled: receivingAddresses.enabled,
      pendingOrders: sql<number>`count(${orders.id})::int`,
    })
    .from(receivingAddresses)
    .leftJoin(orders, and(eq(orders.receivingAddressId, receivingAddresses.id), eq(orders.status, 'pending')))
    .groupBy(receivingAddresses.id)
    .orderBy(asc(receivingAddresses.id));
}
