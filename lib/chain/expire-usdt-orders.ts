import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';

/**
 * Pending USDT orders past their window become closed (status '2') and free their (address, amount) slot.
 * A transfer whose block time lies inside the window still pays the order when it is confirmed later.
 */
export async function expireUsdtOrders(db: Database, now: Date): Promise<number> {
  const { rowCount } = await db.execute(sql`
    UPDATE orders SET status = 'closed', closed_at = ${now}, updated_at = ${now}
    WHERE channel = 'USDT' AND status = 'pending' AND expires_at <= ${now}`);
  return rowCount ?? 0;
}
