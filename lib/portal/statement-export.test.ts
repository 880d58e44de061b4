import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, getDb } from '../db/client';
import { aMerchant } from '../../test/factories';
import { STATEMENT_COLUMNS, statementRange } from './merchant-statement';
import { startStatementExport } from './statement-export';

const HEADER = Object.fromEntries(STATEMENT_COLUMNS.map((column) => [column, column])) as Record<(typeof STATEMENT_COLUMNS)[number], string>;

describe('a statement export read elsewhere than its lock', () => {
  // Stands for the replica: a pool of its own, counted, so the test sees which pool read the pages.
  const reader = createDatabase(process.env.DATABASE_URL!, 2);
  let readerQueries = 0;
  const query = reader.$client.query.bind(reader.$client) as (...args: unknown[]) => unknown;
  (reader.$client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    readerQueries += 1;
    return query(...args);
  };
  afterAll(() => reader.$client.end());

  it("takes the merchant's lock on the primary and reads the pages on the reader; a second export of the merchant waits meanwhile", async () => {
    const merchant = await aMerchant();
    await getDb().execute(sql`
      INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, status, currency, requested_amount_minor, pay_amount_minor, product_name, pay_token, expires_at, created_at)
      VALUES ('SX-' || ${merchant.id}, ${merchant.id}::bigint, 'sx-1', 'ALIPAY', 'closed', 'CNY', 100, 100, 'x', md5('sx' || ${merchant.id}), now(), timestamptz '2026-03-01 12:00:00+00')`);
    const range = statementRange('2026-03-01', '2026-03-01', 'UTC');
    if ('refused' in range) throw new Error('range refused');
    const input = { merchantId: merchant.id, timeZone: 'UTC', ...range, header: HEADER, rowTypes: { order: 'order', refund: 'refund' } };

    const first = await startStatementExport(getDb(), input, reader);
    if (!first.started) throw new Error(`not started: ${first.reason}`);
    expect(await startStatementExport(getDb(), input, reader)).toEqual({ started: false, reason: 'merchant_busy' });
    let csv = '';
    for await (const chunk of first.chunks) csv += chunk;
    expect(csv).toContain(`SX-${merchant.id}`);
    expect(readerQueries).toBeGreaterThan(0);
    // The lock went back with the export: the next one starts.
    const next = await startStatementExport(getDb(), input, reader);
    if (!next.started) throw new Error(`not started again: ${next.reason}`);
    let again = '';
    for await (const chunk of next.chunks) again += chunk;
    expect(again).toBe(csv);
  });
});
