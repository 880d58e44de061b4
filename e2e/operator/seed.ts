import { randomBytes } from 'node:crypto';
import type pg from 'pg';

/** Test data the service would otherwise take minutes or days to produce (a notification failing 10 times over 25 h). */

const token = () => randomBytes(12).toString('hex');

export async function merchantIdOf(client: pg.Client, appId: string): Promise<number> {
  const { rows } = await client.query<{ id: string }>('SELECT id FROM merchants WHERE app_id = $1', [appId]);
  return Number(rows[0]!.id);
}

/** A USDT order of the merchant, as createUsdtOrder would have stored it. */
export async function seedOrder(client: pg.Client, input: { merchantId: number; addressId: number; amountMinor: number; status: 'pending' | 'paid' }) {
  const orderNo = `U${Date.now()}${randomBytes(3).toString('hex')}`;
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, status, currency, requested_amount_minor, pay_amount_minor,
                         chain_type, receiving_address_id, notify_url, pay_token, expires_at, paid_at, paid_via, holds_slot)
     VALUES ($1, $2, $3, 'USDT', $4, 'USDT', $5, $5, '1', $6, 'http://127.0.0.1:9/notify', $7, now() + interval '30 minutes',
             CASE WHEN $4 = 'paid' THEN now() END, CASE WHEN $4 = 'paid' THEN 'chain' END, $4 = 'pending')
     RETURNING id`,
    [orderNo, input.merchantId, `M-${token()}`, input.status, input.amountMinor, input.addressId, token()],
  );
  return { id: Number(rows[0]!.id), orderNo };
}

/** A notification cycle that failed every attempt. */
export async function seedFailedNotification(client: pg.Client, orderId: number): Promise<number> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO notifications (order_id, cycle, status, attempt_count, next_attempt_at, created_at, failed_at, last_error)
     VALUES ($1, 1, 'failed', 10, now(), now() - interval '25 hours', now(), 'HTTP 503 from the merchant')
     RETURNING id`,
    [orderId],
  );
  return Number(rows[0]!.id);
}

/** A confirmed chain transfer as the watcher records it, with its verdict. */
export async function seedTransfer(client: pg.Client, input: { addressId: number; to: string; valueRaw: bigint; verdict: string; orderId?: number }): Promise<number> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO chain_transfers (transaction_id, event_index, block_number, block_time, from_address, to_address, receiving_address_id, value_raw, verdict, order_id)
     VALUES ($1, 0, 1, now(), 'TXsenderxxxxxxxxxxxxxxxxxxxxxxxxxx', $2, $3, $4, $5, $6) RETURNING id`,
    [token() + token(), input.to, input.addressId, input.valueRaw.toString(), input.verdict, input.orderId ?? null],
  );
  return Number(rows[0]!.id);
}

/** A pending ALIPAY credential row (the review only reads its state, never its keys). */
export async function seedPendingCredential(client: pg.Client, merchantId: number): Promise<number> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO upstream_credentials (merchant_id, channel, upstream_app_id, private_key_encrypted, upstream_public_key, review_status, enabled)
     VALUES ($1, 'ALIPAY', $2, 'not-a-real-envelope', 'not-a-real-key', 'pending', true) RETURNING id`,
    [merchantId, String(2021000000000000 + Math.floor(Math.random() * 1e9))],
  );
  return Number(rows[0]!.id);
}
