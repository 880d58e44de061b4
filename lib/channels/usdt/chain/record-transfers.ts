import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { markOrderPaid } from '../../../orders/order-status';
import { RAW_UNITS_PER_CENT } from './chain-config';

export type TransferVerdict = 'matched' | 'no_order' | 'wrong_amount' | 'late';

export interface PoolTransfer {
  /** The USDT chain (TRC20 when absent, ERC20, BEP20, POLYGON): (chain, transactionId, eventIndex) identifies a transfer. */
  chain?: string;
  /** Raw token units per cent: 10^4 with 6 decimals (TRC20's, when absent), 10^16 with 18 (BEP20). */
  rawPerCent?: bigint;
  transactionId: string;
  eventIndex: number;
  blockNumber: number;
  blockTime: Date;
  from: string;
  to: string;
  receivingAddressId: number;
  valueRaw: bigint;
  /**
   * The time the order window is judged at, when it differs from blockTime: EVM block timestamps have whole seconds,
   * so the end of that second (an order created at 12:00:00.700 can be paid in the block stamped 12:00:00).
   */
  windowTime?: Date;
}

export interface RecordedTransfer {
  transfer: PoolTransfer;
  /** undefined when the transfer had been recorded before (a duplicate event). */
  verdict?: TransferVerdict;
  orderId?: number;
}

type Candidate = {
  id: string;
  expires_at: string;
};

/** The order that a transfer of this exact amount to this address at this time pays, or the one it came too late for. */
async function exactAmountOrder(tx: Database, transfer: PoolTransfer, amountMinor: bigint): Promise<Candidate | undefined> {
  const { rows } = await tx.execute<Candidate>(sql`
    SELECT id, expires_at FROM orders
    WHERE channel = 'USDT' AND receiving_address_id = ${transfer.receivingAddressId} AND pay_amount_minor = ${amountMinor}
      AND status IN ('pending', 'closed') AND paid_at IS NULL AND created_at <= ${windowTime(transfer)}
    ORDER BY created_at DESC LIMIT 1
    FOR UPDATE`);
  return rows[0];
}

const windowTime = (transfer: PoolTransfer) => transfer.windowTime ?? transfer.blockTime;

async function openOrdersOnAddress(tx: Database, transfer: PoolTransfer): Promise<string[]> {
  const { rows } = await tx.execute<{ id: string }>(sql`
    SELECT id FROM orders
    WHERE channel = 'USDT' AND receiving_address_id = ${transfer.receivingAddressId} AND paid_at IS NULL
      AND created_at <= ${windowTime(transfer)} AND expires_at >= ${transfer.blockTime}
    LIMIT 2`);
  return rows.map((row) => row.id);
}

async function judge(tx: Database, transfer: PoolTransfer): Promise<{ verdict: TransferVerdict; orderId?: number }> {
  const rawPerCent = transfer.rawPerCent ?? RAW_UNITS_PER_CENT;
  if (transfer.valueRaw % rawPerCent === 0n) {
    const candidate = await exactAmountOrder(tx, transfer, transfer.valueRaw / rawPerCent);
    if (candidate) {
      const onTime = transfer.blockTime.getTime() <= new Date(candidate.expires_at).getTime();
      return { verdict: onTime ? 'matched' : 'late', orderId: Number(candidate.id) };
    }
  }
  const open = await openOrdersOnAddress(tx, transfer);
  if (open.length === 0) return { verdict: 'no_order' };
  // A short or over payment: linked to the order when only one was open on the address.
  return { verdict: 'wrong_amount', orderId: open.length === 1 ? Number(open[0]) : undefined };
}

/**
 * Stores each transfer once (unique chain, transaction id and event index) with its verdict, and pays the order it
 * matches exactly: same address (hence same chain), pay_usdt equal to the raw value in whole cents, block time inside
 * the order's window. A payment confirmed after the window closed still pays the order when its block time was inside
 * the window.
 */
export async function recordTransfers(db: Database, transfers: readonly PoolTransfer[]): Promise<RecordedTransfer[]> {
  if (transfers.length === 0) return [];
  return db.transaction(async (transaction) => recordTransfersIn(transaction as unknown as Database, transfers));
}

/** recordTransfers inside the caller's transaction (the EVM watcher records in the one that moves its cursor). */
export async function recordTransfersIn(tx: Database, transfers: readonly PoolTransfer[]): Promise<RecordedTransfer[]> {
  const recorded: RecordedTransfer[] = [];
  for (const transfer of transfers) {
    const { verdict, orderId } = await judge(tx, transfer);
    const { rows } = await tx.execute<{ id: string }>(sql`
      INSERT INTO chain_transfers (chain, transaction_id, event_index, block_number, block_time, from_address, to_address,
                                   receiving_address_id, value_raw, verdict, order_id)
      VALUES (${transfer.chain ?? 'TRC20'}, ${transfer.transactionId}, ${transfer.eventIndex}, ${transfer.blockNumber}, ${transfer.blockTime}, ${transfer.from},
              ${transfer.to}, ${transfer.receivingAddressId}, ${transfer.valueRaw.toString()}, ${verdict}, ${orderId ?? null})
      ON CONFLICT (chain, transaction_id, event_index) DO NOTHING
      RETURNING id`);
    if (rows.length === 0) {
      recorded.push({ transfer });
      continue;
    }
    if (verdict === 'matched') {
      await markOrderPaid(tx, {
        orderId: orderId!,
        via: 'chain',
        paidAt: transfer.blockTime,
        tradeNo: transfer.transactionId,
        payer: transfer.from,
        allowClosed: true,
      });
    }
    recorded.push({ transfer, verdict, orderId });
  }
  return recorded;
}
