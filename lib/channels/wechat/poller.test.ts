import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aMerchant, aWechatCredential, aWechatOrder } from '../../../test/factories';
import { startSandboxTestBed } from '../../../test/beds/sandboxes';
import { paySandboxWechatOrder } from '../../../sandbox/wechat/pay';
import type { UsableCredential } from '../../credentials/find-usable-credential';
import { getDb } from '../../db/client';
import { wechatAccountOf } from './account';
import { closeByOutTradeNo } from './client';
import { wechatConfig } from './config';
import { CLOSE_WITHOUT_ANSWER_AFTER_MS, pollPendingWechatOrders } from './poll-pending-orders';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchantId: number;
let credential: UsableCredential;

async function state(orderNo: string) {
  const { rows } = await getDb().execute<{ status: string; paid_via: string | null; trade_no: string | null; notifications: number }>(
    sql`SELECT status, paid_via, trade_no, (SELECT count(*)::int FROM notifications n WHERE n.order_id = o.id) AS notifications FROM orders o WHERE order_no = ${orderNo}`,
  );
  return rows[0]!;
}

async function upstreamState(orderNo: string) {
  const { rows } = await getDb().execute<{ trade_state: string }>(sql`SELECT trade_state FROM sandbox_wechat_orders WHERE out_trade_no = ${orderNo}`);
  return rows[0]?.trade_state;
}

async function recorded(orderNo: string) {
  const { rows } = await getDb().execute<{ kind: string; verdict: string }>(sql`SELECT kind, verdict FROM upstream_callbacks WHERE out_trade_no = ${orderNo} ORDER BY id`);
  return rows;
}

/** An order made a minute ago (older than the poller's first-check delay). */
const anOrder = (overrides: Partial<Parameters<typeof aWechatOrder>[0]> = {}) => aWechatOrder({ merchantId, credential, createdAt: new Date(Date.now() - 60_000), ...overrides });

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchantId = (await aMerchant()).id;
  credential = await aWechatCredential(merchantId);
});
afterAll(() => bed.close());

describe('wechat-poller', () => {
  it('finds a payment whose notification was lost: paid via wechat-poll, recorded as a query, merchant notified', async () => {
    const { order } = await anOrder();
    const { order: upstream } = await paySandboxWechatOrder(getDb(), { outTradeNo: order.orderNo }, { notify: false });
    const summary = await pollPendingWechatOrders(getDb(), new Date());
    expect(summary.paid).toBeGreaterThanOrEqual(1);
    expect(await state(order.orderNo)).toEqual({ status: 'paid', paid_via: 'wechat-poll', trade_no: upstream.transactionId, notifications: 1 });
    expect(await recorded(order.orderNo)).toEqual([{ kind: 'query', verdict: 'paid' }]);
    // A late notification is then a duplicate.
    expect((await paySandboxWechatOrder(getDb(), { outTradeNo: order.orderNo })).notify?.httpStatus).toBe(204);
    expect((await state(order.orderNo)).notifications).toBe(1);
  });

  it('closes an order WeChat reports CLOSED, leaves a NOTPAY order in its window alone, and skips orders younger than 15 s', async () => {
    const { order: closedUpstream } = await anOrder();
    await closeByOutTradeNo(wechatConfig(), wechatAccountOf(credential), closedUpstream.orderNo);
    const { order: waiting } = await anOrder();
    const { order: young } = await aWechatOrder({ merchantId, credential });
    await paySandboxWechatOrder(getDb(), { outTradeNo: young.orderNo }, { notify: false });
    await pollPendingWechatOrders(getDb(), new Date());
    expect((await state(closedUpstream.orderNo)).status).toBe('closed');
    expect((await state(waiting.orderNo)).status).toBe('pending');
    expect(await upstreamState(waiting.orderNo)).toBe('NOTPAY');
    expect((await state(young.orderNo)).status).toBe('pending');
  });

  it('past its window an unpaid order is closed at WeChat first, then here', async () => {
    const { order } = await anOrder();
    const afterWindow = new Date(order.expiresAt.getTime() + 60_000);
    await pollPendingWechatOrders(getDb(), afterWindow);
    expect(await upstreamState(order.orderNo)).toBe('CLOSED');
    expect((await state(order.orderNo)).status).toBe('closed');
  });

  it('a close answered 204 without WeChat\'s signature is forged: the order is not closed', async () => {
    const { order } = await anOrder();
    // A man in the middle: forwards to the sandbox, but strips the signature from the close answer.
    const { createServer } = await import('node:http');
    const proxy = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const upstream = await fetch(`${bed.wechatSandboxUrl}${request.url}`, {
        method: request.method,
        headers: Object.fromEntries(Object.entries(request.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host')),
        body: request.method === 'POST' ? Buffer.concat(chunks) : undefined,
      });
      const headers = Object.fromEntries([...upstream.headers].filter(([name]) => !request.url!.endsWith('/close') || !name.startsWith('wechatpay-')));
      response.writeHead(upstream.status, headers);
      response.end(Buffer.from(await upstream.arrayBuffer()));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const lines: string[] = [];
    try {
      const config = { ...wechatConfig(), baseUrl: `http://127.0.0.1:${(proxy.address() as { port: number }).port}` };
      await pollPendingWechatOrders(getDb(), new Date(order.expiresAt.getTime() + 60_000), { config, log: (line) => lines.push(line) });
    } finally {
      proxy.close();
    }
    expect(lines.some((line) => line.includes(`${order.orderNo}: WeChat Pay answer failed signature verification`))).toBe(true);
    expect((await state(order.orderNo)).status).toBe('pending');
  });

  it('a payment WeChat took after the window is recorded as late for the operator and the order closed', async () => {
    const { order } = await anOrder();
    await paySandboxWechatOrder(getDb(), { outTradeNo: order.orderNo }, { notify: false });
    await getDb().execute(sql`UPDATE orders SET expires_at = now() - interval '10 minutes' WHERE id = ${order.id}`);
    await pollPendingWechatOrders(getDb(), new Date());
    expect(await state(order.orderNo)).toMatchObject({ status: 'closed', notifications: 0 });
    expect(await recorded(order.orderNo)).toEqual([{ kind: 'query', verdict: 'late_payment' }]);
  });

  it('when WeChat cannot be asked the order stays pending, and is closed an hour after its window', async () => {
    const { order } = await anOrder();
    const lines: string[] = [];
    const unreachable = { ...wechatConfig(), baseUrl: 'http://127.0.0.1:9' };
    const inWindow = await pollPendingWechatOrders(getDb(), new Date(), { config: unreachable, log: (line) => lines.push(line) });
    expect(inWindow.failed).toBeGreaterThanOrEqual(1);
    expect(lines.some((line) => line.includes(`${order.orderNo}: WeChat Pay is unreachable`))).toBe(true);
    expect((await state(order.orderNo)).status).toBe('pending');
    await pollPendingWechatOrders(getDb(), new Date(order.expiresAt.getTime() + CLOSE_WITHOUT_ANSWER_AFTER_MS + 1), { config: unreachable });
    expect((await state(order.orderNo)).status).toBe('closed');
  });
});
