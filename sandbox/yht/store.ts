import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '@/lib/db/client';
import { sandboxYhtOrders, type SandboxYhtOrderRow } from './schema';

export type SandboxOrder = SandboxYhtOrderRow;

export async function findByOutTradeNo(db: Database, mchNo: string, outTradeNo: string): Promise<SandboxOrder | undefined> {
  const [row] = await db
    .select()
    .from(sandboxYhtOrders)
    .where(and(eq(sandboxYhtOrders.mchNo, mchNo), eq(sandboxYhtOrders.outTradeNo, outTradeNo)))
    .limit(1);
  return row;
}

export async function findByTradeNo(db: Database, tradeNo: string): Promise<SandboxOrder | undefined> {
  const [row] = await db.select().from(sandboxYhtOrders).where(eq(sandboxYhtOrders.tradeNo, tradeNo)).limit(1);
  return row;
}

/** Any merchant's order by the merchant's order number (the CLI names orders by the service's orderNo). */
export async function findAnyByOutTradeNo(db: Database, outTradeNo: string): Promise<SandboxOrder | undefined> {
  const [row] = await db.select().from(sandboxYhtOrders).where(eq(sandboxYhtOrders.outTradeNo, outTradeNo)).limit(1);
  return row;
}

export async function insertOrder(db: Database, values: typeof sandboxYhtOrders.$inferInsert): Promise<SandboxOrder | undefined> {
  const [row] = await db.insert(sandboxYhtOrders).values(values).onConflictDoNothing().returning();
  return row;
}

/** A waiting order past its expiry time is closed (as the upstream would on its own). */
export async function closeIfExpired(db: Database, order: SandboxOrder, now: Date): Promise<SandboxOrder> {
  if (order.status !== 'WAITING' || order.expireAt.getTime() > now.getTime()) return order;
  const [closed] = await db
    .update(sandboxYhtOrders)
    .set({ status: 'CLOSED' })
    .where(and(eq(sandboxYhtOrders.id, order.id), eq(sandboxYhtOrders.status, 'WAITING')))
    .returning();
  return closed ?? (await findByTradeNo(db, order.tradeNo))!;
}

export async function markPaid(db: Database, order: SandboxOrder, now: Date): Promise<SandboxOrder> {
  const [paid] = await db
    .update(sandboxYhtOrders)
    .set({ status: 'SUCCESS', paidAt: now })
    .where(and(eq(sandboxYhtOrders.id, order.id), eq(sandboxYhtOrders.status, 'WAITING')))
    .returning();
  return paid ?? (await findByTradeNo(db, order.tradeNo))!;
}

export async function recordNotify(db: Database, order: SandboxOrder, at: Date, result: string): Promise<void> {
  await db
    .update(sandboxYhtOrders)
    .set({ notifyCount: sql`${sandboxYhtOrders.notifyCount} + 1`, lastNotifyAt: at, lastNotifyResult: result.slice(0, 500) })
    .where(eq(sandboxYhtOrders.id, order.id));
}
