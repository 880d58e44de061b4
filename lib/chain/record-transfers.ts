import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { markOrderPaid } from '../orders/mark-order-paid';
import { RAW_UNITS_PER_CENT } from './chain-config';

export type TransferVerdict = 'matched' | 'no_order' | 'wrong_amount' | 'late';

export interface PoolTransfer {
  transactionId: string;
  eventIndex: number;
  blockNumber: number;
  blockTime: Date;
  from: string;
  to: string;
  receivingAddressId: number;
  valueRaw: bigint;
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
      AND status IN ('pending', 'closed') AND paid_at IS NULL AND created_at <= ${transfer.blockTime}
    ORDER BY created_at DESC LIMIT 1
    FOR UPDATE`);
  return rows[0];
}

async function openOrdersOnAddress(tx: Database, transfer: PoolTransfer): Promise<string[]> {
  const { rows } = await tx.execute<{ id: string }>(sql`
    SELECT id FROM orders
    WHERE channel = 'USDT' AND receiving_address_id = ${transfer.receivingAddressId} AND paid_at IS NULL
      AND created_at <= ${transfer.blockTime} AND expires_at >= ${transfer.blockTime}
    LIMIT 2`);
  return rows.map((row) => row.id);
}

async function judge(tx: Database, transfer: PoolTransfer): Promise<{ verdict: TransferVerdict; orderId?: number }> {
  if (transfer.valueRaw % RAW_UNITS_PER_CENT === 0n) {
    const candidate = await exactAmountOrder(tx, transfer, transfer.valueRaw / RAW_UNITS_PER_CENT);
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
 * Stores each transfer once (unique transaction id and event index) with its verdict, and pays the order it
 * matches exactly: same address, pay_usdt equal to the raw value, block time inside the order's window. A payment
 * confirmed after the window closed still pays the order when its block time was inside the window.
 */
export async function recordTransfers(db: Database, transfers: readonly PoolTransfer[]): Promise<RecordedTransfer[]> {
  if (transfers.length === 0) return [];
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const recorded: RecordedTransfer[] = [];
    for (const transfer of transfers) {
      const { verdict, orderId } = await judge(tx, transfer);
      const { rows } = await tx.execute<{ id: string }>(sql`
        INSERT INTO chain_transfers (transaction_id, event_index, block_number, block_time, from_address, to_address,
                                     receiving_address_id, value_raw, verdict, order_id)
        VALUES (${transfer.transactionId}, ${transfer.eventIndex}, ${transfer.blockNumber}, ${transfer.blockTime}, ${transfer.from},
                ${transfer.to}, ${transfer.receivingAddressId}, ${transfer.valueRaw.toString()}, ${verdict}, ${orderId ?? null})
        ON CONFLICT (transaction_id, event_index) DO NOTHING
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
  });
}
