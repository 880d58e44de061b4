import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { aMerchant } from '../../test/factories';
import { merchantStatement, STATEMENT_COLUMNS, statementRange } from './merchant-statement';

const HEADER = Object.fromEntries(STATEMENT_COLUMNS.map((column) => [column, column])) as Record<(typeof STATEMENT_COLUMNS)[number], string>;
const ROW_TYPES = { order: '订单', refund: '退款' };
/** The status column in the merchant's language, as the route gives it (common.orderStanding, portal.refunds.states). */
const STATUSES = { order: { paid: '已支付', expired: '已过期' }, refund: { succeeded: '已成功' } };

describe('merchant statements', () => {
  it('refuses a range it cannot read, naming the field', () => {
    expect(statementRange(undefined, '2026-01-02', 'UTC')).toEqual({ refused: 'from' });
    expect(statementRange('2026-01-01', '2026-02-30', 'UTC')).toEqual({ refused: 'to' });
    expect(statementRange('2026-01-02', '2026-01-01', 'UTC')).toEqual({ refused: 'range' });
    expect(statementRange('2025-01-01', '2026-01-02', 'UTC')).toEqual({ refused: 'range' });
    // Days before the service existed (year 1 once answered 500: no zone places its midnight) or past the century.
    expect(statementRange('0001-01-01', '0001-01-02', 'Asia/Shanghai')).toEqual({ refused: 'fromOutOfRange' });
    expect(statementRange('2019-12-31', '2020-01-01', 'UTC')).toEqual({ refused: 'fromOutOfRange' });
    expect(statementRange('2099-12-31', '9999-12-31', 'UTC')).toEqual({ refused: 'toOutOfRange' });
    expect(statementRange('2020-01-01', '2020-01-01', 'UTC')).toEqual({ start: new Date('2020-01-01T00:00:00Z'), end: new Date('2020-01-02T00:00:00Z') });
    expect(statementRange('2026-01-01', '2026-01-01', 'Asia/Shanghai')).toEqual({ start: new Date('2025-12-31T16:00:00Z'), end: new Date('2026-01-01T16:00:00Z') });
  });

  it('streams 100,000 orders page by page, then the refunds of the range, as UTF-8 CSV with a BOM, times in the merchant zone, amounts as written, Chinese intact', async () => {
    const merchant = await aMerchant();
    const run = `${process.pid}-${Date.now()}`;
    // 100,000 orders on 2026-03-01 Shanghai time (the first at 00:00:01 there, i.e. 16:00:01 UTC the day before), one the day after.
    await getDb().execute(sql`
      INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, status, currency, requested_amount_minor, pay_amount_minor, product_name,
                          pay_token, expires_at, created_at, paid_at, trade_no)
      SELECT 'S' || ${run} || '-' || g, ${merchant.id}::bigint, 'st-' || g, 'ALIPAY', CASE WHEN g % 2 = 0 THEN 'paid' ELSE 'closed' END, 'CNY', 1250 + g, 1250 + g,
             CASE WHEN g = 1 THEN '年度会员, "金卡"' WHEN g = 2 THEN '=HYPERLINK("x")' ELSE '月度会员' END,
             md5(${run} || g), now(), timestamptz '2026-02-28 16:00:00+00' + g * interval '1 second' / 2,
             CASE WHEN g % 2 = 0 THEN timestamptz '2026-02-28 16:00:00+00' + g * interval '1 second' / 2 + interval '1 minute' END, 'T' || g
      FROM generate_series(1, 100000) AS g
      UNION ALL
      SELECT 'S' || ${run} || '-next', ${merchant.id}::bigint, 'st-next', 'ALIPAY', 'closed', 'CNY', 1, 1, 'x', md5(${run}), now(), timestamptz '2026-03-01 16:00:00+00', NULL, NULL`);
    // A refund of order 2 asked for at 23:00 Shanghai and refunded at 23:30; one asked for the day after is not listed.
    await getDb().execute(sql`
      INSERT INTO refunds (refund_no, merchant_id, order_id, merchant_refund_no, amount_minor, state, created_by, created_at, finished_at)
      SELECT 'RS' || ${run} || '-' || g, ${merchant.id}::bigint, o.id, 'mr-' || g, 500, 'succeeded', 'api',
             timestamptz '2026-03-01 15:00:00+00' + (g - 1) * interval '1 day', timestamptz '2026-03-01 15:30:00+00' + (g - 1) * interval '1 day'
      FROM orders o, generate_series(1, 2) AS g WHERE o.order_no = 'S' || ${run} || '-2'`);
    const range = statementRange('2026-03-01', '2026-03-01', 'Asia/Shanghai');
    if ('refused' in range) throw new Error('range refused');

    let chunks = 0;
    let lines = 0;
    let largestChunk = 0;
    const kept: string[] = [];
    let last = '';
    for await (const chunk of merchantStatement(getDb(), { merchantId: merchant.id, timeZone: 'Asia/Shanghai', ...range, header: HEADER, rowTypes: ROW_TYPES, statuses: STATUSES })) {
      chunks += 1;
      largestChunk = Math.max(largestChunk, chunk.length);
      const chunkLines = chunk.split('\r\n').filter((line) => line !== '');
      lines += chunkLines.length;
      if (kept.length < 4) kept.push(...chunkLines.slice(0, 4 - kept.length));
      last = chunkLines.at(-1) ?? last;
    }
    expect(lines).toBe(100_002);
    // Pages of 250 rows, written 50 rows (about 5 kB) to a chunk: the range is never read, nor written, at once, and
    // no chunk holds the event loop for long.
    expect(chunks).toBeGreaterThanOrEqual(2_000);
    expect(largestChunk).toBeLessThan(20_000);
    expect(kept[0]).toBe(`\uFEFF${STATEMENT_COLUMNS.join(',')}`);
    expect(kept[1]).toBe(`订单,2026-03-01 00:00:00,S${run}-1,st-1,ALIPAY,已过期,CNY,12.51,12.51,,T1,"年度会员, ""金卡""",,,,`);
    expect(kept[2]).toBe(`订单,2026-03-01 00:00:01,S${run}-2,st-2,ALIPAY,已支付,CNY,12.52,12.52,2026-03-01 00:01:01,T2,"'=HYPERLINK(""x"")",,,,`);
    expect(kept[3]).toBe(`订单,2026-03-01 00:00:01,S${run}-3,st-3,ALIPAY,已过期,CNY,12.53,12.53,,T3,月度会员,,,,`);
    expect(last).toBe(`退款,2026-03-01 23:00:00,S${run}-2,st-2,ALIPAY,已成功,CNY,,,,T2,"'=HYPERLINK(""x"")",RS${run}-1,mr-1,5.00,2026-03-01 23:30:00`);
  }, 120_000);
});
