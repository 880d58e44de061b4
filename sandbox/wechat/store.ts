import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '@/lib/db/client';
import { sandboxWechatOrders, type SandboxWechatOrderRow } from './schema';

export type SandboxWechatOrder = SandboxWechatOrderRow;

export async function findByOutTradeNo(db: Database, mchId: string, outTradeNo: string): Promise<SandboxWechatOrder | undefined> {
  const [row] = await db
    .select()
    .from(sandboxWechatOrders)
    .where(and(eq(sandboxWechatOrders.mchId, mchId), eq(sandboxWechatOrders.outTradeNo, outTradeNo)))
    .limit(1);
  return row;
}

export async function findByPayId(db: Database, payId: string): Promise<SandboxWechatOrder | undefined> {
  const [row] = await db.select().from(sandboxWechatOrders).where(eq(sandboxWechatOrders.payId, payId)).limit(1);
  return row;
}

/** Any merchant's order by out_trade_no (the CLI names orders by the service's platformOrderNo). */
export async function findAnyByOutTradeNo(db: Database, outTradeNo: string): Promise<SandboxWechatOrder | undefined> {
  const [row] = await db.select().from(sandboxWechatOrders).where(eq(sandboxWechatOrders.outTradeNo, outTradeNo)).limit(1);
  return row;
}

export async function insertOrder(db: Database, values: typeof sandboxWechatOrders.$inferInsert): Promise<SandboxWechatOrder | undefined> {
  const [row] = await db.insert(sandboxWechatOrders).values(values).onConflictDoNothing().returning();
  return row;
}

async function moveFrom(db: Database, order: SandboxWechatOrder, from: string, change: Partial<typeof sandboxWechatOrders.$inferInsert>): Promise<SandboxWechatOrder> {
  const [moved] = await db
    .update(sandboxWechatOrders)
    .set(change)
    .where(and(eq(sandboxWechatOrders.id, order.id), eq(sandboxWechatOrders.tradeState, from)))
    .returning();
  return moved ?? (await findByPayId(db, order.payId))!;
}

/** A NOTPAY order past time_expire is CLOSED (as WeChat does on its own). */
export async function closeIfExpired(db: Database, order: SandboxWechatOrder, now: Date): Promise<SandboxWechatOrder> {
  if (order.tradeState !== 'NOTPAY' || order.timeExpire.getTime() > now.getTime()) return order;
  return moveFrom(db, order, 'NOTPAY', { tradeState: 'CLOSED' });
}

export function closeOrder(db: Database, order: SandboxWechatOrder): Promise<SandboxWechatOrder> {
  return moveFrom(db, order, 'NOTPAY', { tradeState: 'CLOSED' });
}

export function markPaid(db: Database, order: SandboxWechatOrder, now: Date): Promise<SandboxWechatOrder> {
  return moveFrom(db, order, 'NOTPAY', { tradeState: 'SUCCESS', successTime: now });
}

export async function recordNotify(db: Database, order: SandboxWechatOrder, at: Date, result: string): Promise<void> {
  await db
    .update(sandboxWechatOrders)
    .set({ notifyCount: sql`${sandboxWechatOrders.notifyCount} + 1`, lastNotifyAt: at, lastNotifyResult: result.slice(0, 500) })
    .where(eq(sandboxWechatOrders.id, order.id));
}

/** Records one h5_url handed out for an MWEB order (its `package`) and when. */
export async function recordH5Url(db: Database, order: SandboxWechatOrder, pkg: string, at: Date): Promise<SandboxWechatOrder> {
  const [row] = await db
    .update(sandboxWechatOrders)
    .set({ h5Urls: sql`${sandboxWechatOrders.h5Urls} || jsonb_build_object(${pkg}::text, ${at.toISOString()}::text)` })
    .where(eq(sandboxWechatOrders.id, order.id))
    .returning();
  return row!;
}
