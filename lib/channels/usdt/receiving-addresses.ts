import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { DomainError } from '../../errors/domain-error';
import type { Database } from '../../db/client';
import { orders, receivingAddresses } from '../../db/schema';
import { recordAudit } from '../../audit/record-audit';
import { isTronAddress } from './tron/address';
import { InvalidEvmAddress, parseEvmAddress } from './evm/evm-address';
import { USDT_CHAINS } from './usdt-chains';

/** The pool's chains: TRC20 and the EVM chains (an EVM chain's addresses may be added before USDT_EVM_CHAINS enables it). */
export const SUPPORTED_CHAINS = USDT_CHAINS.map((chain) => chain.name);

const invalidReceivingAddress = (message: string) => new DomainError('invalid_receiving_address', { message });
const receivingAddressNotFound = (id: number) => new DomainError('not_found', { message: `receiving address not found: ${id}` });

/** EVM addresses are stored in their EIP-55 form (the watcher looks recipients up by it). */
function evmAddress(address: string): string {
  try {
    return parseEvmAddress('address', address);
  } catch (error) {
    if (error instanceof InvalidEvmAddress) throw invalidReceivingAddress(`address: ${address} is not an EVM address with a valid EIP-55 checksum: a character is mistyped or in the wrong case; copy the address again from the wallet that holds its key`);
    throw error;
  }
}

/** The address in its stored form, or a DomainError naming what is wrong with it. */
function normalisedAddress(chain: string, address: string): string {
  if (!SUPPORTED_CHAINS.includes(chain)) throw invalidReceivingAddress(`chain must be one of ${SUPPORTED_CHAINS.join(', ')}`);
  if (chain === 'TRC20') {
    if (!isTronAddress(address)) throw invalidReceivingAddress(`${address} is not a valid TRON address (base58check)`);
    return address;
  }
  return evmAddress(address);
}

/**
 * Adds an address to the pool; adding one that is already there returns it unchanged (idempotent). With `audit`
 * (operator CLI and console) a new address and its audit entry are one transaction.
 */
export async function addReceivingAddress(db: Database, chain: string, address: string, audit?: { actor: string }) {
  const [added] = await addReceivingAddresses(db, chain, [address], audit);
  return added!;
}

/**
 * Adds several addresses of one chain at once, all or none: every address is checked before anything is written (the
 * error names the first bad one and its position), then the new ones and their audit entries are one transaction.
 * Addresses already in the pool, or repeated in the list, come back with `created: false`.
 */
export async function addReceivingAddresses(db: Database, chain: string, addresses: readonly string[], audit?: { actor: string }) {
  if (addresses.length === 0) throw invalidReceivingAddress('no address given');
  const normalised = addresses.map((address, index) => {
    try {
      return normalisedAddress(chain, address);
    } catch (error) {
      if (addresses.length === 1 || !(error instanceof DomainError)) throw error;
      throw invalidReceivingAddress(`address ${index + 1} of ${addresses.length}: ${error.message}`);
    }
  });
  const distinct = [...new Set(normalised)];
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const inserted = await tx
      .insert(receivingAddresses)
      .values(distinct.map((address) => ({ chain, address })))
      .onConflictDoNothing()
      .returning();
    if (inserted.length > 0) await refreshPoolStatistics(tx);
    if (audit) {
      for (const row of inserted) {
        await recordAudit(tx, { actor: audit.actor, action: 'address.add', subject: `address:${row.id}`, after: { chain, address: row.address, enabled: row.enabled } });
      }
    }
    const rows = await tx
      .select()
      .from(receivingAddresses)
      .where(and(eq(receivingAddresses.chain, chain), inArray(receivingAddresses.address, distinct)));
    const byAddress = new Map(rows.map((row) => [row.address, row]));
    const createdIds = new Set(inserted.map((row) => row.id));
    const reported = new Set<number>();
    return normalised.map((address) => {
      const row = byAddress.get(address)!;
      const created = createdIds.has(row.id) && !reported.has(row.id);
      reported.add(row.id);
      return { address: row, created };
    });
  });
}

/**
 * A submit takes the first free slot address by address in id order, stopping at the first free one
 * (INSERT_ON_FREE_SLOTS_SQL). PostgreSQL plans that walk only when it knows how many addresses the pool holds: without
 * statistics it assumes a handful and probes the slot index once for every enabled address of the chain, on every
 * submit. Autovacuum never analyses a pool that changed by fewer than 50 rows, so the pool's own additions do (a small
 * table: milliseconds, in the adding transaction, visible to every connection's plans when it commits).
 */
async function refreshPoolStatistics(tx: Database): Promise<void> {
  await tx.execute(sql`ANALYZE receiving_addresses`);
}

/**
 * Takes an address out of the pool for new orders (disabled) or puts it back. Pending orders already on it keep
 * it, and the chain watcher still reads transfers to it. The change and its audit entry are one transaction.
 */
export async function setReceivingAddressEnabled(db: Database, input: { id: number; enabled: boolean; actor: string; reason?: string }) {
  if (!Number.isSafeInteger(input.id) || input.id <= 0) throw receivingAddressNotFound(input.id);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [before] = await tx.select().from(receivingAddresses).where(eq(receivingAddresses.id, input.id)).for('update');
    if (!before) throw receivingAddressNotFound(input.id);
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
