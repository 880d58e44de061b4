import { sql } from 'drizzle-orm';
import { getDb } from '../lib/db/client';
import { createUsdtOrder } from '../lib/channels/usdt/create-usdt-order';
import { markOrderPaid } from '../lib/orders/order-status';

let sequence = 0;

/** A pending USDT order of the merchant, created through the domain (an address must be in the pool). */
export async function aPendingUsdtOrder(merchantId: number, notifyUrl: string, overrides: { amountMinor?: bigint; attach?: string } = {}) {
  sequence += 1;
  const { order } = await createUsdtOrder(getDb(), merchantId, {
    merchantOrderNo: `N-${process.pid}-${sequence}`,
    // Two cents apart: one merchant's orders may not hold an amount and its next cent on one address (fair-share.ts).
    amountMinor: overrides.amountMinor ?? BigInt(100 + sequence * 2),
    chainType: '1',
    notifyUrl,
    attach: overrides.attach ?? `attach-${sequence}`,
  });
  return order;
}

export async function payOrder(orderId: number, paidAt: Date, tradeNo = `tx-${orderId}`) {
  return getDb().transaction((tx) => markOrderPaid(tx as never, { orderId, via: 'chain', paidAt, tradeNo }));
}

/** `count` pending USDT orders of the merchant in one statement: a test about notifications needs many, not the order API. */
export async function manyPendingOrders(merchantId: number, notifyUrl: string, count: number): Promise<number[]> {
  sequence += 1;
  const run = `${process.pid}-${sequence}`;
  const { rows } = await getDb().execute<{ id: string }>(sql`
    INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, currency, requested_amount_minor, pay_amount_minor,
                        chain_type, notify_url, attach, pay_token, expires_at)
    SELECT 'M' || ${run} || '-' || g, ${merchantId}, 'many-' || ${run} || '-' || g, 'USDT', 'USDT', 100 + g, 100 + g,
           '1', ${notifyUrl}, 'many', md5(random()::text) || g, now() + interval '1 day'
    FROM generate_series(1, ${count}) AS g
    RETURNING id`);
  return rows.map((row) => Number(row.id));
}

/** `count` orders of the merchant, each paid through the domain as payments arrive (8 at a time). */
export async function manyPaidOrders(merchantId: number, notifyUrl: string, count: number, paidAt: Date): Promise<number[]> {
  const ids = await manyPendingOrders(merchantId, notifyUrl, count);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < ids.length) await payOrder(ids[next++]!, paidAt);
    }),
  );
  return ids;
}
