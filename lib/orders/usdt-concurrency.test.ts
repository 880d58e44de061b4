import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { aMerchant, receivingAddresses } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/open-api-client';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('the +0.01 rule under concurrent submits', () => {
  it('20 concurrent submits of one amount on 2 addresses: 2 at the amount, 2 at +0.01, 16 answered 1010', async () => {
    const merchant = await aMerchant();
    await receivingAddresses(2);
    // Each request has its own pooled connection, so the inserts really race inside PostgreSQL.
    const { rows: pool } = await getDb().execute<{ max: number }>(sql`SELECT current_setting('max_connections')::int AS max`);
    expect(pool[0]!.max).toBeGreaterThanOrEqual(20);

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        app.signedPost(
          '/v1/api/open/order/submit',
          { appId: merchant.appId, merchantOrderNo: `RACE-${index}`, pay_usdt: '25.00', chainType: '1', notifyUrl: 'https://merchant.example/n' },
          merchant.appSecret,
        ),
      ),
    );
    const amounts = results.filter((r) => r.json.code === 0).map((r) => r.json.data.pay_usdt).sort();
    expect(amounts).toEqual(['25.00', '25.00', '25.01', '25.01']);
    expect(results.filter((r) => r.json.code === 1010)).toHaveLength(16);

    const { rows } = await getDb().execute<{ address: string; amount: string; count: number }>(sql`
      SELECT receiving_address_id::text AS address, pay_amount_minor::text AS amount, count(*)::int AS count
      FROM orders WHERE status = 'pending' GROUP BY 1, 2`);
    expect(rows).toHaveLength(4);
    expect(rows.every((row) => row.count === 1)).toBe(true);
  });

  it('concurrent replays of one merchantOrderNo create one order', async () => {
    const merchant = await aMerchant();
    await receivingAddresses(1);
    const fields = { appId: merchant.appId, merchantOrderNo: 'SAME', pay_usdt: '8.00', notifyUrl: 'https://merchant.example/n' };
    const results = await Promise.all(Array.from({ length: 10 }, () => app.signedPost('/v1/api/open/order/submit', fields, merchant.appSecret)));
    expect(new Set(results.map((r) => r.json.data?.orderNo)).size).toBe(1);
    const { rows } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM orders WHERE merchant_order_no = 'SAME'`);
    expect(rows[0]!.count).toBe(1);
  });
});
