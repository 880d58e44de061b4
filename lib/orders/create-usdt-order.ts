import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders, type OrderRow } from '../db/schema';
import { OpenApiError } from '../api/errors';
import { formatMinorUnits } from '../money/decimal-amount';
import { getUsdtMaxPerOrderMinor } from '../settings/platform-settings';
import { findMerchantOrder } from './find-order';
import { newOrderNo, newPayToken, orderTtlMinutes } from './identifiers';

export interface UsdtOrderInput {
  merchantOrderNo: string;
  amountMinor: bigint;
  chainType: string;
  productName?: string;
  notifyUrl?: string;
  redirectUrl?: string;
  attach?: string;
}

export interface CreatedOrder {
  order: OrderRow;
  recovered: boolean;
}

/** A repeat create returns the original order when the immutable fields match (design: unique order key). */
function recoverExisting(existing: OrderRow, input: UsdtOrderInput): CreatedOrder {
  if (existing.channel !== 'USDT') {
    throw new OpenApiError('idempotency_conflict', `merchantOrderNo ${existing.merchantOrderNo} is already used by a ${existing.channel} order`);
  }
  if (existing.requestedAmountMinor !== input.amountMinor) {
    throw new OpenApiError(
      'idempotency_conflict',
      `pay_usdt differs from the original order ${existing.merchantOrderNo} (${formatMinorUnits(existing.requestedAmountMinor)})`,
    );
  }
  if (existing.chainType !== input.chainType) {
    throw new OpenApiError('idempotency_conflict', `chainType differs from the original order ${existing.merchantOrderNo}`);
  }
  return { order: existing, recovered: true };
}

/** Free (address, amount) slots for the amount and amount + 0.01, requested amount first. A hint only: the unique index decides. */
async function freeSlots(db: Database, amountMinor: bigint): Promise<{ addressId: number; amountMinor: bigint }[]> {
  const result = await db.execute<{ address_id: string; amount: string }>(sql`
    SELECT a.id AS address_id, v.amount::text AS amount
    FROM receiving_addresses a
    CROSS JOIN (VALUES (${amountMinor}::bigint, 0), (${amountMinor + 1n}::bigint, 1)) AS v(amount, rank)
    WHERE a.enabled AND a.chain = 'TRC20'
      AND NOT EXISTS (
        SELECT 1 FROM orders o
        WHERE o.status = 'pending' AND o.channel = 'USDT'
          AND o.receiving_address_id = a.id AND o.pay_amount_minor = v.amount
      )
    ORDER BY v.rank, a.id
    LIMIT 16`);
  return result.rows.map((row) => ({ addressId: Number(row.address_id), amountMinor: BigInt(row.amount) }));
}

/** Pending USDT orders past their window no longer hold their slot. */
async function releaseExpiredSlots(db: Database, amountMinor: bigint): Promise<void> {
  await db.execute(sql`
    UPDATE orders SET status = 'closed', closed_at = now(), updated_at = now()
    WHERE status = 'pending' AND channel = 'USDT' AND expires_at <= now()
      AND pay_amount_minor IN (${amountMinor}::bigint, ${amountMinor + 1n}::bigint)`);
}

/**
 * Creates a USDT order on a receiving address where no pending order holds the amount, else at amount + 0.01,
 * else 1010. Concurrent submits race on the partial unique index, never on a read-then-write.
 */
export async function createUsdtOrder(db: Database, merchantId: number, input: UsdtOrderInput, now = new Date()): Promise<CreatedOrder> {
  const existing = await findMerchantOrder(db, merchantId, input.merchantOrderNo);
  if (existing) return recoverExisting(existing, input);

  const limit = await getUsdtMaxPerOrderMinor(db);
  if (input.amountMinor > limit) {
    throw new OpenApiError('amount_over_limit', `pay_usdt exceeds the platform per-order limit of ${formatMinorUnits(limit)} USDT`);
  }

  await releaseExpiredSlots(db, input.amountMinor);
  const expiresAt = new Date(now.getTime() + orderTtlMinutes() * 60_000);
  for (let round = 0; round < 3; round += 1) {
    const slots = await freeSlots(db, input.amountMinor);
    if (slots.length === 0) break;
    for (const slot of slots) {
      const [inserted] = await db
        .insert(orders)
        .values({
          orderNo: newOrderNo('USDT', now),
          merchantId,
          merchantOrderNo: input.merchantOrderNo,
          channel: 'USDT',
          currency: 'USDT',
          requestedAmountMinor: input.amountMinor,
          payAmountMinor: slot.amountMinor,
          chainType: input.chainType,
          receivingAddressId: slot.addressId,
          productName: input.productName,
          notifyUrl: input.notifyUrl,
          redirectUrl: input.redirectUrl,
          attach: input.attach,
          payToken: newPayToken(),
          expiresAt,
        })
        .onConflictDoNothing()
        .returning();
      if (inserted) return { order: inserted, recovered: false };
      // Either the slot went to a concurrent order, or the same merchantOrderNo was created concurrently.
      const raced = await findMerchantOrder(db, merchantId, input.merchantOrderNo);
      if (raced) return recoverExisting(raced, input);
    }
  }
  throw new OpenApiError('no_receiving_address', `no receiving address is free for pay_usdt ${formatMinorUnits(input.amountMinor)}; try again later`);
}
