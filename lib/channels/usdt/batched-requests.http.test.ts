import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aMerchant, orderCount, receivingAddresses } from '../../../test/factories';
import { sampleValue, scrape } from '../../../test/metrics-scrape';
import { startTestAppForMonitor, type TestApp } from '../../../test/open-api-client';

/**
 * Submits and queries that arrive together share one statement (lib/db/statement-batches.ts), and each still gets
 * its own answer: new orders, replays, refusals, a slot taken by a neighbour in the same statement and queries of
 * two merchants, all at once over HTTP.
 */
const SUBMIT = '/v1/api/open/order/submit';
const QUERY = '/v1/api/open/order/query';
let app: TestApp & { monitor: { authorization: string } };
const run = Date.now().toString(36);

beforeAll(async () => {
  app = await startTestAppForMonitor();
  await receivingAddresses(3);
});
afterAll(() => app.close());

async function batchFigures(statement: string): Promise<{ statements: number; requests: number; timed: number; seconds: number }> {
  const { text } = await scrape(app.baseUrl, app.monitor);
  return {
    statements: sampleValue(text, 'payment_db_statement_batch_size_count', { statement }) ?? 0,
    requests: sampleValue(text, 'payment_db_statement_batch_size_sum', { statement }) ?? 0,
    timed: sampleValue(text, 'payment_db_statement_duration_seconds_count', { statement }) ?? 0,
    seconds: sampleValue(text, 'payment_db_statement_duration_seconds_sum', { statement }) ?? 0,
  };
}

describe('concurrent open-API requests sent to the database together', () => {
  it('answer each request as if it had been alone', async () => {
    const alice = await aMerchant({ wholePool: true }); // may hold one amount on every address
    const bob = await aMerchant(); // the default share: his inserts are weighed after the statement
    const order = (merchant: typeof alice, no: string, payUsdt: string) => ({
      appId: merchant.appId,
      merchantOrderNo: no,
      pay_usdt: payUsdt,
      notifyUrl: 'https://merchant.example/notify',
    });
    const stored = order(alice, `STORED-${run}`, '5.00');
    const first = await app.signedPost(SUBMIT, stored, alice.appSecret);
    expect(first.json.code).toBe(0);
    const before = await orderCount();
    const insertsBefore = await batchFigures('usdt_insert_on_free_slots');
    const lookupsBefore = await batchFigures('queried_orders');

    type Case = { merchant: typeof alice; path: string; fields: Record<string, string>; expect: (json: any) => void };
    const cases: Case[] = [];
    for (let index = 0; index < 40; index += 1) {
      const merchant = index % 2 === 0 ? alice : bob;
      const fields = order(merchant, `NEW-${run}-${index}`, `${10 + index}.01`);
      cases.push({ merchant, path: SUBMIT, fields, expect: (json) => expect(json).toMatchObject({ code: 0, data: { merchantOrderNo: fields.merchantOrderNo, pay_usdt: fields.pay_usdt } }) });
    }
    // Four orders of one amount on three addresses: three at the amount, one at + 0.01, whichever shared a statement.
    const sameAmount: string[] = [];
    for (let index = 0; index < 4; index += 1) {
      const fields = order(alice, `SAME-${run}-${index}`, '7.77');
      cases.push({ merchant: alice, path: SUBMIT, fields, expect: (json) => (expect(json.code).toBe(0), sameAmount.push(json.data.pay_usdt)) });
    }
    // A merchant's concurrent retries of a new order, likely in one statement: one order, the same answer to each.
    const retried = order(bob, `RETRIED-${run}`, '8.88');
    const retriedOrderNos: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      cases.push({ merchant: bob, path: SUBMIT, fields: retried, expect: (json) => (expect(json.code).toBe(0), retriedOrderNos.push(json.data.orderNo)) });
    }
    for (let index = 0; index < 3; index += 1) {
      cases.push({ merchant: alice, path: SUBMIT, fields: stored, expect: (json) => expect(json).toMatchObject({ code: 0, data: { orderNo: first.json.data.orderNo } }) });
    }
    cases.push({ merchant: alice, path: SUBMIT, fields: { ...stored, pay_usdt: '6.00' }, expect: (json) => expect(json.code).toBe(1007) });
    cases.push({ merchant: bob, path: SUBMIT, fields: order(bob, `OVER-${run}`, '10000.01'), expect: (json) => expect(json.code).toBe(1008) });
    for (let index = 0; index < 5; index += 1) {
      cases.push({
        merchant: alice,
        path: QUERY,
        fields: { appId: alice.appId, merchantOrderNo: stored.merchantOrderNo },
        expect: (json) => expect(json).toMatchObject({ code: 0, data: { orderNo: first.json.data.orderNo, pay_usdt: '5.00' } }),
      });
    }
    // Bob asks for Alice's number, in the same statement as Alice's own queries: not his order.
    cases.push({ merchant: bob, path: QUERY, fields: { appId: bob.appId, merchantOrderNo: stored.merchantOrderNo }, expect: (json) => expect(json.code).toBe(1006) });
    cases.push({ merchant: alice, path: QUERY, fields: { appId: alice.appId, merchantOrderNo: `UNKNOWN-${run}` }, expect: (json) => expect(json.code).toBe(1006) });

    const answers = await Promise.all(cases.map((entry) => app.signedPost(entry.path, entry.fields, entry.merchant.appSecret)));
    answers.forEach((answer, index) => {
      expect(answer.status).toBe(200);
      cases[index]!.expect(answer.json);
    });
    expect(sameAmount.sort()).toEqual(['7.77', '7.77', '7.77', '7.78']);
    expect(new Set(retriedOrderNos).size).toBe(1);
    expect(await orderCount()).toBe(before + 45);

    // The same requests one after another would be 52 inserts and 7 lookups: together they took fewer statements.
    const inserts = await batchFigures('usdt_insert_on_free_slots');
    const lookups = await batchFigures('queried_orders');
    expect(inserts.requests - insertsBefore.requests).toBeGreaterThanOrEqual(51); // the 1007 replay of another amount may not reach the insert
    expect(inserts.statements - insertsBefore.statements).toBeLessThan(inserts.requests - insertsBefore.requests);
    expect(lookups.requests - lookupsBefore.requests).toBe(7);
    // Each statement's time to answer is counted once, whatever the number of requests it carried.
    for (const [after, before] of [[inserts, insertsBefore], [lookups, lookupsBefore]] as const) {
      expect(after.timed - before.timed).toBe(after.statements - before.statements);
      expect(after.seconds - before.seconds).toBeGreaterThan(0);
    }
  });
});
