import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { aMerchant, receivingAddresses } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/open-api-client';
import { addReceivingAddress } from './receiving-addresses';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('the +0.01 rule under concurrent submits', () => {
  it('20 concurrent submits of one amount on 2 addresses: 2 at the amount, 2 at +0.01, 16 answered 1010', async () => {
    const merchant = await aMerchant({ wholePool: true });
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
    const merchant = await aMerchant({ wholePool: true });
    await receivingAddresses(1);
    const fields = { appId: merchant.appId, merchantOrderNo: 'SAME', pay_usdt: '8.00', notifyUrl: 'https://merchant.example/n' };
    const results = await Promise.all(Array.from({ length: 10 }, () => app.signedPost('/v1/api/open/order/submit', fields, merchant.appSecret)));
    expect(new Set(results.map((r) => r.json.data?.orderNo)).size).toBe(1);
    const { rows } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM orders WHERE merchant_order_no = 'SAME'`);
    expect(rows[0]!.count).toBe(1);
  });
});

describe('the +0.01 rule per (chain, address, amount)', () => {
  const submit = (merchant: { appId: string; appSecret: string }, merchantOrderNo: string, chainType: string) =>
    app.signedPost(
      '/v1/api/open/order/submit',
      { appId: merchant.appId, merchantOrderNo, pay_usdt: '31.00', chainType, notifyUrl: 'https://merchant.example/n' },
      merchant.appSecret,
    );

  it('equal amounts on two chains get the same slot amount; a second order on one chain and address gets +0.01', async () => {
    process.env.USDT_EVM_CHAINS = 'ERC20,BEP20';
    try {
      const merchant = await aMerchant({ wholePool: true });
      await addReceivingAddress(getDb(), 'ERC20', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
      await addReceivingAddress(getDb(), 'BEP20', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
      const erc20 = await submit(merchant, 'CHAIN-A', '2');
      const bep20 = await submit(merchant, 'CHAIN-B', '3');
      const erc20Again = await submit(merchant, 'CHAIN-C', '2');
      expect([erc20.json.data?.pay_usdt, bep20.json.data?.pay_usdt, erc20Again.json.data?.pay_usdt]).toEqual(['31.00', '31.00', '31.01']);
      const { rows } = await getDb().execute<{ chain: string; amount: string }>(sql`
        SELECT a.chain, o.pay_amount_minor::text AS amount FROM orders o JOIN receiving_addresses a ON a.id = o.receiving_address_id
        WHERE o.merchant_order_no LIKE 'CHAIN-%' ORDER BY o.merchant_order_no`);
      expect(rows).toEqual([
        { chain: 'ERC20', amount: '3100' },
        { chain: 'BEP20', amount: '3100' },
        { chain: 'ERC20', amount: '3101' },
      ]);
      const polygon = await submit(merchant, 'CHAIN-D', '4');
      expect(polygon.json).toMatchObject({ code: 1003, message: 'chainType 4 (POLYGON) is not enabled on this service' });
    } finally {
      delete process.env.USDT_EVM_CHAINS;
    }
  });
});
