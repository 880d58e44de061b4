import { lte, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { orders } from '../../../db/schema';
import { closePendingOrders } from '../../../orders/order-status';
import { usdtNotices } from '../notices';
import { slotCooldownCutoff } from '../slot-cooldown';

/**
 * Pending USDT orders past their window become closed (status '2'). Each keeps its (address, amount) slot for the
 * cool-down after its window (USDT_SLOT_COOLDOWN_MINUTES), so a late transfer from its payer finds it and not a
 * new order; then the slot is freed. A transfer whose block time lies inside the window still pays the order when
 * it is confirmed later. Both statements walk only the rows they change (partial indexes on expires_at).
 */
export async function expireUsdtOrders(db: Database, now: Date): Promise<number> {
  const closed = await closePendingOrders(db, usdtNotices, lte(orders.expiresAt, now), now);
  await db.execute(sql`
    UPDATE orders SET holds_slot = false, updated_at = ${now}
    WHERE holds_slot AND expires_at <= ${slotCooldownCutoff(now)} AND status <> 'pending'`);
  return closed;
}
