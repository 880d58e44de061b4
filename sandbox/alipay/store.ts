import { and, eq, or, sql } from 'drizzle-orm';
import type { Database } from '@/lib/db/client';
import { sandboxAlipayTrades, type SandboxAlipayTradeRow } from './schema';

export type SandboxTrade = SandboxAlipayTradeRow;

export async function findTrade(db: Database, appId: string, ref: { outTradeNo?: string; tradeNo?: string }): Promise<SandboxTrade | undefined> {
  const match = or(
    ref.outTradeNo ? eq(sandboxAlipayTrades.outTradeNo, ref.outTradeNo) : undefined,
    ref.tradeNo ? eq(sandboxAlipayTrades.tradeNo, ref.tradeNo) : undefined,
  );
  if (!match) return undefined;
  const [row] = await db.select().from(sandboxAlipayTrades).where(and(eq(sandboxAlipayTrades.appId, appId), match)).limit(1);
  return row;
}

export async function findByTradeNo(db: Database, tradeNo: string): Promise<SandboxTrade | undefined> {
  const [row] = await db.select().from(sandboxAlipayTrades).where(eq(sandboxAlipayTrades.tradeNo, tradeNo)).limit(1);
  return row;
}

export async function findAnyByOutTradeNo(db: Database, outTradeNo: string): Promise<SandboxTrade | undefined> {
  const [row] = await db.select().from(sandboxAlipayTrades).where(eq(sandboxAlipayTrades.outTradeNo, outTradeNo)).limit(1);
  return row;
}

/** The trade of (app, out_trade_no), created on the payer's first visit; later visits find the same one. */
export async function insertTrade(db: Database, values: typeof sandboxAlipayTrades.$inferInsert): Promise<SandboxTrade> {
  await db.insert(sandboxAlipayTrades).values(values).onConflictDoNothing();
  return (await findTrade(db, values.appId, { outTradeNo: values.outTradeNo }))!;
}

/**
 * Alipay documents time_expire as binding the mobile website (wap) pay only: a waiting wap trade past it is closed,
 * as Alipay closes it by itself. A page-pay trade stays payable past time_expire until the merchant closes it
 * (alipay.trade.close), as the real one may.
 */
export async function closeIfExpired(db: Database, trade: SandboxTrade, now: Date): Promise<SandboxTrade> {
  if (trade.method !== 'alipay.trade.wap.pay' || trade.timeExpire.getTime() > now.getTime()) return trade;
  return closeWaiting(db, trade);
}

/** Closes a waiting trade (no-op for any other); the trade as it is now. */
export async function closeWaiting(db: Database, trade: SandboxTrade): Promise<SandboxTrade> {
  if (trade.status !== 'WAIT_BUYER_PAY') return trade;
  const [closed] = await db
    .update(sandboxAlipayTrades)
    .set({ status: 'TRADE_CLOSED' })
    .where(and(eq(sandboxAlipayTrades.id, trade.id), eq(sandboxAlipayTrades.status, 'WAIT_BUYER_PAY')))
    .returning();
  return closed ?? (await findByTradeNo(db, trade.tradeNo))!;
}

export async function markPaid(db: Database, trade: SandboxTrade, now: Date, buyerLogonId: string): Promise<SandboxTrade> {
  const [paid] = await db
    .update(sandboxAlipayTrades)
    .set({ status: 'TRADE_SUCCESS', paidAt: now, buyerLogonId })
    .where(and(eq(sandboxAlipayTrades.id, trade.id), eq(sandboxAlipayTrades.status, 'WAIT_BUYER_PAY')))
    .returning();
  return paid ?? (await findByTradeNo(db, trade.tradeNo))!;
}

export async function recordNotify(db: Database, trade: SandboxTrade, at: Date, result: string): Promise<void> {
  await db
    .update(sandboxAlipayTrades)
    .set({ notifyCount: sql`${sandboxAlipayTrades.notifyCount} + 1`, lastNotifyAt: at, lastNotifyResult: result.slice(0, 500) })
    .where(eq(sandboxAlipayTrades.id, trade.id));
}
