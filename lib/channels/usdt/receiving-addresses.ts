import { and, asc, eq, sql } from 'drizzle-orm';
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
    if (error instanceof InvalidEvmAddress) throw invalidReceivingAddress(`address: ${address} is not an EVM address with a valid EIP-55 checksum`);
    throw error;
  }
}

/**
 * Adds an address to the pool; adding one that is already there returns it unchanged (idempotent). With `audit`
 * (operator CLI and console) a new address and its audit entry are one transaction.
 */
export async function addReceivingAddress(db: Database, chain: string, address: string, audit?: { actor: string }) {
  if (!SUPPORTED_CHAINS.includes(chain)) throw invalidReceivingAddress(`chain must be one of ${SUPPORTED_CHAINS.join(', ')}`);
  if (chain === 'TRC20') {
    if (!isTronAddress(address)) throw invalidReceivingAddress(`${address} is not a valid TRON address (base58check)`);
  } else {
    address = evmAddress(address);
  }
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
