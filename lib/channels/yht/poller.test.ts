import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock';
import { getDb } from '../../db/client';
import { PERIODIC_JOBS } from '../../workers/periodic-jobs';
import { runJobExclusively } from '../../jobs/periodic-job';
import { aMerchant } from '../../../test/factories';
import { serveWebHandler } from '../../../test/web-handler-server';
import { yhtSignature, yhtSubmit } from '../../../test/yht-sandbox';
import { QUERY, SUBMIT, startSandboxTestBed } from '../../../test/beds/sandboxes';
import { paySandboxOrder } from '../../../sandbox/yht/pay';
import { yhtConfig } from './config';
import { CLOSE_WITHOUT_ANSWER_AFTER_MS, pollPendingYhtOrders, yhtPollerJob } from './poll-pending-orders';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
const MINUTE = 60_000;
const lines: string[] = [];
const log = (line: string) => lines.push(line);

async function anOrder() {
  const fields = yhtSubmit(merchant.appId, { payMoney: '40.00' });
  const { json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
  expect(json.code).toBe(0);
  const { rows } = await getDb().execute<{ trade_no: string; created_at: string }>(
    sql`SELECT s.trade_no, o.created_at FROM sandbox_yht_orders s JOIN orders o ON o.order_no = s.out_trade_no WHERE s.out_trade_no = ${json.data.orderNo}`,
  );
  return { orderNo: json.data.orderNo as string, merchantOrderNo: fields.merchantOrderNo as string, tradeNo: rows[0]!.trade_no, createdAt: new Date(rows[0]!.created_at) };
}

async function state(orderNo: string) {
  const { rows } = await getDb().execute<{ id: number; status: string; paid_via: string | null; trade_no: string | null; notifications: number }>(sql`
    SELECT o.id::int AS id, o.status, o.paid_via, o.trade_no, (SELECT count(*)::int FROM notifications n WHERE n.order_id = o.id) AS notifications
    FROM orders o WHERE o.order_no = ${orderNo}`);
  return rows[0]!;
}

async function recorded(orderNo: string) {
  const { rows } = await getDb().execute<{ kind: string; verdict: string }>(sql`SELECT kind, verdict FROM upstream_callbacks WHERE out_trade_no = ${orderNo} ORDER BY id`);
  return rows;
}

async function wireStatus(merchantOrderNo: string): Promise<string> {
  const { json } = await bed.app.signedPost(QUERY, { appId: merchant.appId, merchantOrderNo, payType: 'YHT' }, merchant.appSecret);
  return json.data.status;
}

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await aMerchant();
});
afterAll(() => bed.close());

describe('YHT poller', () => {
  it('is one of the periodic jobs', () => {
    expect(PERIODIC_JOBS).toContain(yhtPollerJob);
  });

  it('finds a payment whose callback was lost, marks it paid once and queues the notification', async () => {
    const order = await anOrder();
    const { callback } = await paySandboxOrder(getDb(), { tradeNo: order.tradeNo }, { sendCallback: false });
    expect(callback).toBeUndefined();
    expect((await state(order.orderNo)).status).toBe('pending');

    const clock = new ManualClock(new Date(order.createdAt.getTime() + 2 * MINUTE));
    expect(await runJobExclusively(yhtPollerJob, { db: getDb(), clock, log })).toBe(true);
    expect(await state(order.orderNo)).toMatchObject({ status: 'paid', paid_via: 'yht-query', trade_no: order.tradeNo, notifications: 1 });
    expect(await recorded(order.orderNo)).toEqual([{ kind: 'query', verdict: 'paid' }]);
    expect(await wireStatus(order.merchantOrderNo)).toBe('1');

    // The callback turns up after all: acknowledged, nothing changes.
    const late = await paySandboxOrder(getDb(), { tradeNo: order.tradeNo });
    expect(late.callback?.body).toBe('success');
    await pollPendingYhtOrders(getDb(), clock.now(), { log });
    expect((await state(order.orderNo)).notifications).toBe(1);
    expect((await recorded(order.orderNo)).map((entry) => entry.verdict)).toEqual(['paid', 'duplicate']);
  });

  it('leaves an unpaid order pending inside its window and closes it when the window ends', async () => {
    const order = await anOrder();
    const clock = new ManualClock(new Date(order.createdAt.getTime() + 29 * MINUTE));
    await pollPendingYhtOrders(getDb(), clock.now(), { log });
    expect((await state(order.orderNo)).status).toBe('pending');
    expect(await wireStatus(order.merchantOrderNo)).toBe('0');

    clock.advance(1 * MINUTE + 1_000);
    const summary = await pollPendingYhtOrders(getDb(), clock.now(), { log });
    expect(summary.closed).toBeGreaterThanOrEqual(1);
    expect((await state(order.orderNo)).status).toBe('closed');
    expect(await wireStatus(order.merchantOrderNo)).toBe('2');
    expect(await recorded(order.orderNo)).toEqual([]);
  });

  it('keeps an order pending while the upstream cannot be asked, and closes it an hour past its window', async () => {
    const order = await anOrder();
    const previous = process.env.YHT_BASE_URL;
    process.env.YHT_BASE_URL = 'http://127.0.0.1:9/sandbox/yht'; // discard port: refused
    try {
      const clock = new ManualClock(new Date(order.createdAt.getTime() + 31 * MINUTE));
      const summary = await pollPendingYhtOrders(getDb(), clock.now(), { log });
      expect(summary.failed).toBeGreaterThanOrEqual(1);
      expect((await state(order.orderNo)).status).toBe('pending');
      expect(lines.some((line) => line.includes(`query ${order.orderNo} failed: YHT upstream is unreachable`))).toBe(true);

      clock.advance(CLOSE_WITHOUT_ANSWER_AFTER_MS);
      await pollPendingYhtOrders(getDb(), clock.now(), { log });
      expect((await state(order.orderNo)).status).toBe('closed');
    } finally {
      process.env.YHT_BASE_URL = previous;
    }
  });

  it('records an upstream payment of another amount once, for the operator, and pays nothing', async () => {
    const order = await anOrder();
    await getDb().execute(sql`UPDATE sandbox_yht_orders SET status = 'SUCCESS', paid_at = now(), amount_minor = 1 WHERE trade_no = ${order.tradeNo}`);
    const clock = new ManualClock(new Date(order.createdAt.getTime() + MINUTE));
    await pollPendingYhtOrders(getDb(), clock.now(), { log });
    clock.advance(MINUTE);
    await pollPendingYhtOrders(getDb(), clock.now(), { log });
    expect(await state(order.orderNo)).toMatchObject({ status: 'pending', notifications: 0 });
    expect(await recorded(order.orderNo)).toEqual([{ kind: 'query', verdict: 'amount_mismatch' }]);
  });

  it('records a payment made after the window as late, and closes the order', async () => {
    const order = await anOrder();
    const paidAt = new Date(order.createdAt.getTime() + 35 * MINUTE);
    await getDb().execute(sql`UPDATE sandbox_yht_orders SET status = 'SUCCESS', paid_at = ${paidAt.toISOString()} WHERE trade_no = ${order.tradeNo}`);
    await pollPendingYhtOrders(getDb(), new Date(order.createdAt.getTime() + 40 * MINUTE), { log });
    expect(await state(order.orderNo)).toMatchObject({ status: 'closed', notifications: 0 });
    expect(await recorded(order.orderNo)).toEqual([{ kind: 'query', verdict: 'late_payment' }]);
  });

  it('closes an order the upstream reports closed', async () => {
    const order = await anOrder();
    await getDb().execute(sql`UPDATE sandbox_yht_orders SET status = 'CLOSED' WHERE trade_no = ${order.tradeNo}`);
    await pollPendingYhtOrders(getDb(), new Date(order.createdAt.getTime() + MINUTE), { log });
    expect((await state(order.orderNo)).status).toBe('closed');
  });

  it('closes an order past its window on a signed ORDER_NOT_EXIST, but never on an unsigned or badly signed one', async () => {
    // A fake upstream answering every query with an error that is not signed, or signed with another key.
    let signWith: string | undefined;
    const fake = await serveWebHandler(async () => {
      const refusal = { code: 'ORDER_NOT_EXIST', msg: 'no such order' };
      const body = signWith === undefined ? refusal : { ...refusal, sign: yhtSignature(refusal, signWith) };
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    });
    try {
      const order = await anOrder();
      await getDb().execute(sql`DELETE FROM sandbox_yht_orders WHERE trade_no = ${order.tradeNo}`); // the upstream has lost it
      const afterWindow = new Date(order.createdAt.getTime() + 31 * MINUTE);
      for (const key of [undefined, 'another-key']) {
        signWith = key;
        const summary = await pollPendingYhtOrders(getDb(), afterWindow, { log, config: { ...yhtConfig(), baseUrl: fake.url } });
        expect(summary.failed).toBeGreaterThanOrEqual(1);
        expect((await state(order.orderNo)).status).toBe('pending');
        expect(lines.at(-1)).toContain('YHT upstream answer has no valid signature (code ORDER_NOT_EXIST)');
      }
      await pollPendingYhtOrders(getDb(), afterWindow, { log }); // the simulator signs its ORDER_NOT_EXIST
      expect((await state(order.orderNo)).status).toBe('closed');
    } finally {
      await fake.close();
    }
  });
});
