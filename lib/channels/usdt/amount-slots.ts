import { and, eq, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { preparedSql } from '../../db/prepared';
import { orders } from '../../db/schema';
import { closePendingOrders } from '../../orders/order-status';
import { usdtNotices } from './notices';

/**
 * The amount-slot rule (the "+0.01 rule"). A USDT payment carries no reference, only a receiving address and an
 * amount, so the chain watcher can tell orders apart only if no two open orders share (address, amount): that pair
 * is a slot (an address belongs to one chain, so the rule holds per (chain, address, amount)), and one order at a time holds it (the partial unique index orders_usdt_slot_holder_key). A submit takes
 * a slot at the requested amount on the first free address; when every address holds that amount it takes one at
 * the amount + 0.01 (`pay_usdt` answers what the payer must pay); when those are held too, the submit is 1010.
 * An order holds its slot until it is paid, or until USDT_SLOT_COOLDOWN_MINUTES after its window (slot-cooldown.ts),
 * so a late transfer for an expired order never pays a new one. Concurrent submits race on the unique index, never
 * on a read-then-write (amount-slots.test.ts).
 */

/** How far above the requested amount the rule may go: one cent (0.01 USDT). */
export const SLOT_STEP_MINOR = 1n;

export interface AmountSlot {
  addressId: number;
  amountMinor: bigint;
}

/**
 * Slots for the amount ($1) and amount + 0.01 ($2), requested amount first, on enabled addresses of the chain ($4): those no
 * order holds, then those whose holder's window ended at or before the cool-down cutoff ($3), which the insert
 * frees when it meets them. A hint only: the unique index over held slots decides.
 *
 * The holder lookup is a LATERAL subquery with LIMIT 1, which PostgreSQL cannot flatten into a join: it stays one
 * probe of orders_usdt_slot_holder_key per (address, amount) in custom and generic plans alike, whatever the number
 * of orders. (A NOT EXISTS form was planned, at some table sizes, as a hash anti-join over a scan of `orders`.)
 */
export const FREE_SLOTS_SQL = `
    SELECT a.id AS address_id, v.amount::text AS amount
    FROM receiving_addresses a
    CROSS JOIN (VALUES ($1::bigint, 0), ($2::bigint, 1)) AS v(amount, rank)
    LEFT JOIN LATERAL (
      SELECT o.expires_at FROM orders o
      WHERE o.holds_slot AND o.receiving_address_id = a.id AND o.pay_amount_minor = v.amount
      LIMIT 1
    ) AS h ON true
    WHERE a.enabled AND a.chain = $4 AND (h.expires_at IS NULL OR h.expires_at <= $3::timestamptz)
    ORDER BY v.rank, h.expires_at IS NOT NULL, a.id
    LIMIT 16`;

/** The slots a submit may take, in the rule's order: the requested amount first, then the amount + 0.01. */
export async function candidateSlots(db: Database, chain: string, amountMinor: bigint, cutoff: Date): Promise<AmountSlot[]> {
  const statement = preparedSql<{ address_id: string; amount: string }>(db, 'usdt_free_slots', FREE_SLOTS_SQL, ['amount', 'next', 'cutoff', 'chain']);
  const result = await statement.execute({ amount: amountMinor, next: amountMinor + SLOT_STEP_MINOR, cutoff, chain });
  return result.rows.map((row) => ({ addressId: Number(row.address_id), amountMinor: BigInt(row.amount) }));
}

/**
 * Frees one slot ($1 address, $2 amount) whose holder's window ended at or before the cool-down cutoff ($3). One
 * probe of the slot index; the row lock makes concurrent submits that met the same holder free it once.
 */
export const RELEASE_COOLED_SLOT_SQL = `
    UPDATE orders SET holds_slot = false, updated_at = $4::timestamptz
    WHERE holds_slot AND receiving_address_id = $1::bigint AND pay_amount_minor = $2::bigint
      AND expires_at <= $3::timestamptz`;

/** Frees a cooled slot, closing its holder first if the expiry job has not yet; true when this call freed it. */
export async function releaseCooledSlot(db: Database, slot: AmountSlot, cutoff: Date, now: Date): Promise<boolean> {
  await closePendingOrders(
    db,
    usdtNotices,
    and(sql`${orders.holdsSlot}`, eq(orders.receivingAddressId, slot.addressId), eq(orders.payAmountMinor, slot.amountMinor), lte(orders.expiresAt, cutoff))!,
    now,
  );
  const statement = preparedSql(db, 'usdt_release_cooled_slot', RELEASE_COOLED_SLOT_SQL, ['addressId', 'amount', 'cutoff', 'now']);
  const result = await statement.execute({ addressId: slot.addressId, amount: slot.amountMinor, cutoff, now });
  return (result.rowCount ?? 0) > 0;
}
