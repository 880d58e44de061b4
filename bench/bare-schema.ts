import { onDatabaseServer } from '../test/database-server';
import { bringPendingOrdersTo } from './pending-orders';

/**
 * The baseline's own tables, written for the bench and sharing nothing with the service's schema or SQL: what a
 * straightforward implementation of the same USDT submit would keep (merchants with their secret, receiving
 * addresses, orders with a unique index over pending (address, amount)).
 */
const BARE_SCHEMA = `
  CREATE TABLE bare_merchants (
    id serial PRIMARY KEY,
    app_id text NOT NULL UNIQUE,
    app_secret text NOT NULL,
    can_order boolean NOT NULL
  );
  CREATE TABLE bare_addresses (
    id serial PRIMARY KEY,
    address text NOT NULL UNIQUE
  );
  CREATE TABLE bare_orders (
    id bigserial PRIMARY KEY,
    order_no text NOT NULL UNIQUE,
    merchant_id integer NOT NULL REFERENCES bare_merchants (id),
    merchant_order_no text NOT NULL,
    amount bigint NOT NULL,
    pay_amount bigint NOT NULL,
    address_id integer NOT NULL REFERENCES bare_addresses (id),
    status text NOT NULL DEFAULT 'pending',
    pay_token text NOT NULL UNIQUE,
    product_name text,
    notify_url text NOT NULL,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (merchant_id, merchant_order_no)
  );
  CREATE UNIQUE INDEX bare_orders_pending_slot ON bare_orders (address_id, pay_amount) WHERE status = 'pending';`;

/** The baseline's tables, one merchant (the same AppID and secret as the service's bench merchant) and its addresses. */
export async function seedBareDatabase(url: string, merchant: { appId: string; appSecret: string }, addresses: number): Promise<void> {
  await onDatabaseServer(url, async (client) => {
    await client.query(BARE_SCHEMA);
    await client.query('INSERT INTO bare_merchants (app_id, app_secret, can_order) VALUES ($1, $2, true)', [merchant.appId, merchant.appSecret]);
    await client.query(`INSERT INTO bare_addresses (address) SELECT 'TBare' || g FROM generate_series(1, $1::int) AS g`, [addresses]);
  });
}

/**
 * Pending orders brought to `count` (from other payers, on amounts above anything the bench submits), so the baseline
 * works at the same table size as the service.
 */
export async function topUpBarePending(url: string, count: number): Promise<void> {
  await bringPendingOrdersTo(
    url,
    'bare_orders',
    count,
    `INSERT INTO bare_orders (order_no, merchant_id, merchant_order_no, amount, pay_amount, address_id, pay_token, notify_url, expires_at)
       SELECT 'BP' || g, (SELECT min(id) FROM bare_merchants), 'pending-' || g, 100000000 + g, 100000000 + g,
              (SELECT min(id) FROM bare_addresses) + g % (SELECT count(*) FROM bare_addresses)::int,
              md5('bare' || g), 'https://merchant.example/notify', now() + interval '1 hour'
       FROM generate_series($1::int + 1, $2::int) AS g`,
  );
}
