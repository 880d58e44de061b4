import { sql } from 'drizzle-orm';
import type { Database } from '../lib/db/client';

export interface ScaleSeed {
  /** The merchant with ORDERS_OF_BIG_MERCHANT orders. */
  bigMerchantId: number;
  otherMerchantIds: number[];
  addressIds: number[];
}

export const ORDERS_OF_BIG_MERCHANT = 100_000;
const ORDERS_OF_OTHERS = 20_000;

/**
 * A database as a busy platform has it, written with INSERT … SELECT generate_series so that it takes seconds:
 * 120,000 orders (100,000 of one merchant) over a year, the four channels in turn; 30% pending (created in the last
 * 30 minutes, USDT ones holding their slot), 50% paid, 20% closed; a notification for each paid order (1% failed
 * for good, some due now), a chain transfer for each paid USDT order plus 2,000 that need an operator, an upstream
 * callback for each paid order of the other channels plus 500 rejected ones, the upstream's answer for each WECHAT
 * and YHT order, 100,000 audit entries.
 */
export async function seedAtScale(db: Database, merchantIds: number[], addressIds: number[]): Promise<ScaleSeed> {
  const [bigMerchantId, ...otherMerchantIds] = merchantIds as [number, ...number[]];
  const total = ORDERS_OF_BIG_MERCHANT + ORDERS_OF_OTHERS;
  const others = `{${otherMerchantIds.join(',')}}`;
  const addresses = `{${addressIds.join(',')}}`;
  await db.execute(sql`
    INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, status, currency, requested_amount_minor, pay_amount_minor,
                        chain_type, receiving_address_id, pay_method, notify_url, pay_token, expires_at, paid_at, closed_at,
                        created_at, updated_at, holds_slot, paid_via, trade_no, upstream_check_after)
    SELECT 'SEED' || g, merchant_id, 'SEED-' || g, channel, status, CASE WHEN channel = 'USDT' THEN 'USDT' ELSE 'CNY' END,
           100 + g, 100 + g, CASE WHEN channel = 'USDT' THEN '1' END,
           CASE WHEN channel = 'USDT' THEN (${addresses}::bigint[])[1 + g % ${addressIds.length}] END,
           CASE WHEN channel IN ('ALIPAY', 'WECHAT') THEN 'native' END,
           'https://merchant.example/notify', substr(md5(g::text) || md5(g::text || 'token'), 1, 43), created_at + interval '30 minutes',
           CASE WHEN status = 'paid' THEN created_at + interval '2 minutes' END,
           CASE WHEN status = 'closed' THEN created_at + interval '30 minutes' END,
           created_at, created_at, channel = 'USDT' AND status = 'pending',
           CASE WHEN status = 'paid' THEN 'seed' END, CASE WHEN status = 'paid' THEN 'T' || g END,
           CASE WHEN channel = 'ALIPAY' AND status = 'pending' THEN created_at + interval '1 minute' END
    FROM (
      SELECT g,
             CASE WHEN g <= ${ORDERS_OF_BIG_MERCHANT} THEN ${bigMerchantId}::bigint ELSE (${others}::bigint[])[1 + g % ${otherMerchantIds.length}] END AS merchant_id,
             (ARRAY['USDT', 'ALIPAY', 'WECHAT', 'YHT'])[1 + g % 4] AS channel,
             CASE WHEN g % 10 < 3 THEN 'pending' WHEN g % 10 < 8 THEN 'paid' ELSE 'closed' END AS status,
             CASE WHEN g % 10 < 3 THEN now() - make_interval(secs => g % 1800)
                  ELSE now() - make_interval(secs => 1800 + (g::bigint * 7919) % 31536000) END AS created_at
      FROM generate_series(1, ${total}) AS g
    ) AS s`);
  await db.execute(sql`
    INSERT INTO notifications (order_id, cycle, status, attempt_count, next_attempt_at, created_at, delivered_at, failed_at, last_error)
    SELECT id, 1, CASE WHEN id % 100 = 0 THEN 'failed' WHEN id % 100 = 1 THEN 'pending' ELSE 'delivered' END, 1,
           CASE WHEN id % 100 = 1 THEN now() - interval '1 second' ELSE paid_at END, paid_at,
           CASE WHEN id % 100 > 1 THEN paid_at END, CASE WHEN id % 100 = 0 THEN paid_at + interval '1 day' END,
           CASE WHEN id % 100 = 0 THEN 'HTTP 500' END
    FROM orders WHERE status = 'paid'`);
  await db.execute(sql`
    INSERT INTO notification_attempts (notification_id, attempt_no, worker_id, started_at, finished_at, outcome, http_status)
    SELECT id, 1, 'seed', created_at, created_at, CASE WHEN status = 'failed' THEN 'rejected' ELSE 'acknowledged' END, 200 FROM notifications`);
  await db.execute(sql`
    INSERT INTO upstream_orders (order_id, channel, upstream_order_no, cashier_url, qr_content, created_at)
    SELECT id, channel, 'UP' || id, 'https://upstream.example/pay/' || id, 'weixin://wxpay/' || id, created_at
    FROM orders WHERE channel IN ('WECHAT', 'YHT')`);
  await db.execute(sql`
    INSERT INTO chain_transfers (transaction_id, event_index, block_number, block_time, from_address, to_address, receiving_address_id,
                                 value_raw, verdict, order_id)
    SELECT 'tx-' || id, 0, id, paid_at, 'TPayer', 'TPool', receiving_address_id, pay_amount_minor * 10000, 'matched', id
    FROM orders WHERE channel = 'USDT' AND status = 'paid'`);
  await db.execute(sql`
    INSERT INTO chain_transfers (transaction_id, event_index, block_number, block_time, from_address, to_address, receiving_address_id,
                                 value_raw, verdict)
    SELECT 'stray-' || g, 0, g, now() - make_interval(secs => g * 60), 'TStranger', 'TPool', (${addresses}::bigint[])[1 + g % ${addressIds.length}],
           g * 10000, (ARRAY['no_order', 'wrong_amount', 'late'])[1 + g % 3]
    FROM generate_series(1, 2000) AS g`);
  await db.execute(sql`
    INSERT INTO upstream_callbacks (channel, kind, received_at, out_trade_no, trade_no, order_id, verdict)
    SELECT channel, 'callback', paid_at, order_no, trade_no, id, 'paid' FROM orders WHERE channel <> 'USDT' AND status = 'paid'`);
  await db.execute(sql`
    INSERT INTO upstream_callbacks (channel, kind, received_at, out_trade_no, verdict, detail)
    SELECT 'ALIPAY', 'callback', now() - make_interval(secs => g * 60), 'UNKNOWN' || g, 'bad_signature', 'seeded'
    FROM generate_series(1, 500) AS g`);
  await db.execute(sql`
    INSERT INTO attention_dismissals (kind, item_id, note, actor)
    SELECT 'transfer', id, 'seen', 'seed' FROM chain_transfers WHERE verdict <> 'matched' AND id % 2 = 0`);
  await db.execute(sql`
    INSERT INTO audit_log (actor, action, subject, created_at)
    SELECT 'account:' || (g % 7), (ARRAY['credential.approve', 'merchant.permission', 'address.add'])[1 + g % 3], 'seed ' || g,
           now() - make_interval(secs => g * 30)
    FROM generate_series(1, 100000) AS g`);
  await db.execute(sql`VACUUM ANALYZE`);
  return { bigMerchantId, otherMerchantIds, addressIds };
}
