import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aMerchant, orderCount, receivingAddresses } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/open-api-client';
import { getDb } from '../../db/client';
import { newOrderNo, newPayToken } from '../../orders/identifiers';
import { ownConnection } from '../../../test/own-connection';

/**
 * The batched insert arbitrates only the slot key: a unique key it does not arbitrate (a merchantOrderNo another
 * transaction is inserting, an order number drawn twice) fails its statement. A submit caught in that race still
 * gets the answer it would have had alone, whether its statement carried it alone or beside others.
 */
const SUBMIT = '/v1/api/open/order/submit';
const run = Date.now().toString(36);
let app: TestApp;
let other: pg.Client;

beforeAll(async () => {
  app = await startTestApp();
  await receivingAddresses(3);
  other = await ownConnection();
});

afterAll(async () => {
  await other?.end();
  await app?.close();
});

type Merchant = Awaited<ReturnType<typeof aMerchant>>;

/** Another transaction inserts the merchant's order of `amountMinor`, on the last address's slot, and holds it uncommitted. */
async function uncommittedOrder(merchant: Merchant, merchantOrderNo: string, amountMinor: number): Promise<string> {
  await other.query('BEGIN');
  const { rows } = await other.query<{ order_no: string }>(
    `INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, currency, requested_amount_minor, pay_amount_minor, chain_type,
                         receiving_address_id, pay_token, expires_at, holds_slot)
     VALUES ($1, $2, $3, 'USDT', 'USDT', $4, $4, '1', (SELECT max(id) FROM receiving_addresses), $5, now() + interval '30 minutes', true)
     RETURNING order_no`,
    [newOrderNo('U', new Date()), merchant.id, merchantOrderNo, amountMinor, newPayToken()],
  );
  return rows[0]!.order_no;
}

/** Until a statement of the service waits for the other transaction's row lock. */
async function untilAStatementWaits(): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const { rows } = await getDb().execute<{ waiting: number }>(
      sql`SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%WITH inserted%'`,
    );
    if (rows[0]!.waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no submit statement waited for the uncommitted order');
}

const submitOf = (merchant: Merchant, merchantOrderNo: string, payUsdt: string) => ({
  appId: merchant.appId,
  merchantOrderNo,
  pay_usdt: payUsdt,
  notifyUrl: 'https://merchant.example/notify',
});

describe("a submit racing another transaction's insert of its merchantOrderNo", () => {
  it('alone in its statement: answers the committed order, and writes none', async () => {
    const merchant = await aMerchant();
    const merchantOrderNo = `RACE-ALONE-${run}`;
    const before = await orderCount();
    const theirs = await uncommittedOrder(merchant, merchantOrderNo, 999);
    const answer = app.signedPost(SUBMIT, submitOf(merchant, merchantOrderNo, '9.99'), merchant.appSecret);
    await untilAStatementWaits();
    await other.query('COMMIT');

    const { status, json } = await answer;
    expect(status).toBe(200);
    expect(json).toMatchObject({ code: 0, data: { orderNo: theirs, merchantOrderNo, pay_usdt: '9.99' } });
    expect(await orderCount()).toBe(before + 1);
  });

  it('beside other submits: they get their new orders, it gets the committed one', async () => {
    const merchant = await aMerchant();
    const merchantOrderNo = `RACE-BESIDE-${run}`;
    const before = await orderCount();
    const theirs = await uncommittedOrder(merchant, merchantOrderNo, 888);
    const neighbours = Array.from({ length: 6 }, (_, index) => submitOf(merchant, `NEIGHBOUR-${run}-${index}`, `${20 + index}.00`));
    const answers = Promise.all([submitOf(merchant, merchantOrderNo, '8.88'), ...neighbours].map((fields) => app.signedPost(SUBMIT, fields, merchant.appSecret)));
    await untilAStatementWaits();
    await other.query('COMMIT');

    const [raced, ...others] = await answers;
    expect(raced).toMatchObject({ status: 200, json: { code: 0, data: { orderNo: theirs, merchantOrderNo } } });
    others.forEach((answer, index) => {
      expect(answer).toMatchObject({ status: 200, json: { code: 0, data: { merchantOrderNo: neighbours[index]!.merchantOrderNo, pay_usdt: neighbours[index]!.pay_usdt } } });
      expect(answer.json.data.orderNo).not.toBe(theirs);
    });
    expect(await orderCount()).toBe(before + 7);
  });
});
