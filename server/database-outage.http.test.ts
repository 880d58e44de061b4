import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../lib/db/client';
import { aMerchant, receivingAddresses } from '../test/factories';
import { contractSignature } from '../test/beds/contract-signer';
import { startTestApp, type TestApp } from '../test/open-api-client';
import { databaseThroughProxy } from '../test/database-through-proxy';
import { captureLog } from '../test/captured-log';
import { storedOrderCounts } from '../test/stored-orders';
import { distinctUsdtOrders } from '../test/distinct-usdt-orders';

/**
 * The web process while its database is cut, for real: a TCP proxy between the service and PostgreSQL is cut and
 * restored under submit load. Answers during the cut are HTTP 503 with Retry-After and code 1000 (never a 500), the
 * outage is logged once with no SQL, submits succeed again within 2 s of the return, and every acknowledged order is
 * stored exactly once; an order stored just before its answer was lost is the answer of the merchant's retry.
 */
const SUBMIT = '/v1/api/open/order/submit';
let database: Awaited<ReturnType<typeof databaseThroughProxy>>;
let app: TestApp;
let merchant: Awaited<ReturnType<typeof aMerchant>>;

const usdtOrder = distinctUsdtOrders(() => merchant.appId, 'CUT');

interface Answer {
  status: number;
  code: number | undefined;
  retryAfter: string | null;
  ms: number;
  at: number;
  fields: Record<string, string>;
  orderNo?: string;
}

async function submit(fields: Record<string, string>): Promise<Answer> {
  const started = Date.now();
  const response = await fetch(`${app.baseUrl}${SUBMIT}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...fields, signature: contractSignature(fields, merchant.appSecret) }),
  });
  const json = (await response.json()) as { code?: number; data?: { orderNo?: string } };
  return { status: response.status, code: json.code, retryAfter: response.headers.get('retry-after'), ms: Date.now() - started, at: Date.now(), fields, orderNo: json.data?.orderNo };
}

beforeAll(async () => {
  merchant = await aMerchant({ wholePool: true }); // one merchant stands for the many a real load comes from
  await receivingAddresses(3);
  database = await databaseThroughProxy(); // the service's pool now goes through the proxy
  app = await startTestApp();
});

afterAll(async () => {
  await app.close();
  await database.close();
});

describe('the database cut under submit load', () => {
  it('answers 503 with Retry-After during the cut, logs the outage once without SQL, recovers within 2 s, and loses or doubles nothing', async () => {
    const captured = captureLog();
    const logged = captured.lines;
    const answers: Answer[] = [];
    let cutAt = 0;
    let restoredAt = 0;
    const submitters = Array.from({ length: 8 }, async () => {
      const until = Date.now() + 6_000;
      while (Date.now() < until) answers.push(await submit(usdtOrder()));
    });
    const faults = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      database.proxy.cut('refuse');
      cutAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      database.proxy.restore();
      restoredAt = Date.now();
    })();
    try {
      await Promise.all([...submitters, faults]);
    } finally {
      captured.stop();
    }
    const during = answers.filter((answer) => answer.at > cutAt + 200 && answer.at < restoredAt);
    expect(during.length).toBeGreaterThan(0);
    for (const answer of during) {
      expect(answer).toMatchObject({ status: 503, code: 1000, retryAfter: '2' });
      expect(answer.ms).toBeLessThan(1_000);
    }
    expect(answers.filter((answer) => !((answer.status === 200 && answer.code === 0) || (answer.status === 503 && answer.code === 1000))), logged.join('\n')).toEqual([]);
    const firstSuccessAfter = answers.filter((answer) => answer.code === 0 && answer.at > restoredAt).map((answer) => answer.at - restoredAt);
    expect(Math.min(...firstSuccessAfter)).toBeLessThan(2_000);
    console.log(
      `database cut ${restoredAt - cutAt} ms under 8 submitters: ${answers.length} answers, ${answers.filter((answer) => answer.code === 0).length} orders acknowledged, ` +
        `${during.length} answered 503 during the cut (slowest ${Math.max(...during.map((answer) => answer.ms))} ms), first success ${Math.min(...firstSuccessAfter)} ms after the return`,
    );

    const outageLines = logged.filter((line) => line.includes('database'));
    expect(outageLines).toHaveLength(2);
    expect(outageLines[0]).toContain('open api: database unreachable');
    expect(outageLines[1]).toMatch(/open api: database back after [\d.]+ s; \d+ failure\(s\)/);
    expect(logged.join('\n')).not.toMatch(/INSERT|SELECT|params:/);

    // Every acknowledged order is stored once; a refused one's retry answers it (stored or not before the cut).
    const acknowledged = answers.filter((candidate) => candidate.code === 0);
    await database.direct(async () => {
      expect(await storedOrderCounts(acknowledged.map((answer) => answer.fields.merchantOrderNo!))).toEqual(acknowledged.map(() => 1));
    });
    // Retried by 8 merchants' workers at once: a faster service answers thousands of submits 503 during the cut.
    const refused = answers.filter((candidate) => candidate.code !== 0);
    const retries = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const answered: Answer[] = [];
        for (let next = refused.pop(); next; next = refused.pop()) answered.push(await submit(next.fields));
        return answered;
      }),
    );
    for (const retry of retries.flat()) expect(retry).toMatchObject({ status: 200, code: 0 });
    await database.direct(async () => {
      expect(await storedOrderCounts(answers.map((answer) => answer.fields.merchantOrderNo!))).toEqual(answers.map(() => 1));
    });
  });

  it('an order stored by a submit whose answer was lost is what the retry with the same fields answers', async () => {
    const fields = usdtOrder();
    // The insert's answer (its returned row names the merchantOrderNo) comes after its commit, flushed with the
    // statement's end: the order is stored, and its answer never reaches the service.
    const cut = database.proxy.cutWhenServerSends(fields.merchantOrderNo!);
    const first = await submit(fields);
    await cut;
    expect(first).toMatchObject({ status: 503, code: 1000 });
    database.proxy.restore();
    const retry = await submit(fields);
    expect(retry).toMatchObject({ status: 200, code: 0 });
    const { rows } = await database.direct(() => getDb().execute<{ order_no: string }>(sql`SELECT order_no FROM orders WHERE merchant_order_no = ${fields.merchantOrderNo!}`));
    expect(rows.map((row) => row.order_no)).toEqual([retry.orderNo]);
  });
});
