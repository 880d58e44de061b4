import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders, receivingAddresses } from '../db/schema';
import { formatMinorUnits } from '../money/decimal-amount';
import { usdtStatus } from './usdt-view';

export interface UsdtCheckout {
  orderNo: string;
  payUsdt: string;
  address: string;
  network: 'TRC20';
  status: 'pending' | 'paid' | 'expired';
  expiresAt: Date;
  secondsLeft: number;
  productName: string | null;
  redirectUrl: string | null;
}

/** What the payer's checkout page shows, by the payUrl token; undefined for unknown tokens and non-USDT orders. */
export async function findUsdtCheckout(db: Database, payToken: string, now = new Date()): Promise<UsdtCheckout | undefined> {
  const [row] = await db
    .select({ order: orders, address: receivingAddresses.address })
    .from(orders)
    .innerJoin(receivingAddresses, eq(receivingAddresses.id, orders.receivingAddressId))
    .where(eq(orders.payToken, payToken))
    .limit(1);
  if (!row || row.order.channel !== 'USDT') return undefined;
  const status = usdtStatus(row.order, now);
  return {
    orderNo: row.order.orderNo,
    payUsdt: formatMinorUnits(row.order.payAmountMinor),
    address: row.address,
    network: 'TRC20',
    status: status === '1' ? 'paid' : status === '2' ? 'expired' : 'pending',
    expiresAt: row.order.expiresAt,
    secondsLeft: Math.max(0, Math.floor((row.order.expiresAt.getTime() - now.getTime()) / 1000)),
    productName: row.order.productName,
    redirectUrl: row.order.redirectUrl,
  };
}
