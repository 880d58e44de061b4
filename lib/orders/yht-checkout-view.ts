import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders, upstreamOrders } from '../db/schema';
import { formatMinorUnits } from '../money/decimal-amount';
import { yhtStatus } from './yht-view';

export interface YhtCheckout {
  orderNo: string;
  payMoney: string;
  payMethod: string;
  status: 'pending' | 'paid' | 'expired';
  expiresAt: Date;
  secondsLeft: number;
  productName: string | null;
  redirectUrl: string | null;
  /** The upstream cashier, for the payer to continue there (only while the order can be paid). */
  cashierUrl: string | undefined;
  hasQr: boolean;
}

const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

export async function findWithUpstream(db: Database, payToken: string) {
  if (!TOKEN.test(payToken)) return undefined;
  const [row] = await db
    .select({ order: orders, upstream: upstreamOrders })
    .from(orders)
    .innerJoin(upstreamOrders, eq(upstreamOrders.orderId, orders.id))
    .where(eq(orders.payToken, payToken))
    .limit(1);
  return row;
}

/** What the payer's YHT checkout shows, by the payUrl token; the state is always the one stored here. */
export async function findYhtCheckout(db: Database, payToken: string, now = new Date()): Promise<YhtCheckout | undefined> {
  const row = await findWithUpstream(db, payToken);
  if (!row || row.order.channel !== 'YHT') return undefined;
  const status = yhtStatus(row.order, now);
  const payable = status === '0';
  return {
    orderNo: row.order.orderNo,
    payMoney: formatMinorUnits(row.order.payAmountMinor),
    payMethod: row.order.payMethod ?? '',
    status: status === '1' ? 'paid' : status === '2' ? 'expired' : 'pending',
    expiresAt: row.order.expiresAt,
    secondsLeft: Math.max(0, Math.floor((row.order.expiresAt.getTime() - now.getTime()) / 1000)),
    productName: row.order.productName,
    redirectUrl: row.order.redirectUrl,
    cashierUrl: payable ? row.upstream.cashierUrl : undefined,
    hasQr: payable && !!row.upstream.qrContent,
  };
}
