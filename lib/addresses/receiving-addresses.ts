import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders, receivingAddresses } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { isTronAddress } from '../tron/address';

export const SUPPORTED_CHAINS = ['TRC20'] as const;
export type Chain = (typeof SUPPORTED_CHAINS)[number];

export class InvalidReceivingAddress extends Error {}

export class ReceivingAddressNotFound extends Error {
  constructor(readonly id: number) {
    super(`receiving address not found: ${id}`);
    this.name = 'ReceivingAddressNotFound';
  }
}

/**
 * Adds an address to the pool; adding one that is already there returns it unchanged (idempotent). With `audit`
 * (operator CLI and console) a new address and its audit entry are one transaction.
 */
export async function addReceivingAddress(db: Database, chain: string, address: string, audit?: { actor: string }) {
  if (!SUPPORTED_CHAINS.includes(chain as Chain)) throw new InvalidReceivingAddress(`chain must be one of ${SUPPORTED_CHAINS.join(', ')}`);
  if (!isTronAddress(address)) throw new InvalidReceivingAddress(`${address} is not a valid TRON address (base58check)`);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [inserted] = await tx.insert(receivingAddresses).values({ chain, address }).onConflictDoNothing().returning();
    if (inserted) {
      if (audit) {
        await recordAudit(tx, { actor: audit.actor, action: 'address.add', subject: `address:${inserted.id}`, after: { chain, address, enabled: inserted.enabled } });
      }
      return { address: inserted, created: true };
    }
    const [existing] = await tx
      .select()
      .from(receivingAddresses)
      .where(and(eq(receivingAddresses.chain, chain), eq(receivingAddresses.address, address)));
    return { address: existing!, created: false };
  });
}

/**
 * Takes an address out of the pool for new orders (disabled) or puts it back. Pending orders already on it keep
 * it, and the chain watcher still reads transfers to it. The change and its audit entry are one transaction.
 */
export async function setReceivingAddressEnabled(db: Database, input: { id: number; enabled: boolean; actor: string; reason?: string }) {
  if (!Number.isSafeInteger(input.id) || input.id <= 0) throw new ReceivingAddressNotFound(input.id);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [before] = await tx.select().from(receivingAddresses).where(eq(receivingAddresses.id, input.id)).for('update');
    if (!before) throw new ReceivingAddressNotFound(input.id);
    const [after] = await tx.update(receivingAddresses).set({ enabled: input.enabled }).where(eq(receivingAddresses.id, before.id)).returning();
    await recordAudit(tx, {
      actor: input.actor,
      action: input.enabled ? 'address.enable' : 'address.disable',
      subject: `address:${before.id}`,
      reason: input.reason,
      before: { address: before.address, enabled: before.enabled },
      after: { address: after!.address, enabled: after!.enabled },
    });
    return after!;
  });
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
