import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import { getDb } from '../db/client';
import { notificationFieldsOf } from '../channels';
import { NotificationWorker } from '../notifications/notification-worker';
import { paySandboxOrder } from '../../sandbox/yht/pay';
import { aMerchant } from '../../test/factories';
import { startMerchantReceiver } from '../../test/beds/merchant-receiver';
import { SUBMIT, startSandboxTestBed } from '../../test/beds/sandboxes';
import { yhtSubmit } from '../../test/yht-sandbox';
import { captureLog } from '../../test/captured-log';

/** An id the service made: its process tag and a counter. */
const GENERATED_ID = /^[0-9a-f]{12}-[0-9a-z]+$/;

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let receiver: Awaited<ReturnType<typeof startMerchantReceiver>>;

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await aMerchant();
  receiver = await startMerchantReceiver(merchant.appSecret);
});
afterAll(async () => {
  await receiver.close();
  await bed.close();
});

async function submit(headers: Record<string, string>, fields = yhtSubmit(merchant.appId, { notifyUrl: receiver.url })) {
  const { contractSignature } = await import('../../test/beds/contract-signer');
  const response = await fetch(`${bed.app.baseUrl}${SUBMIT}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ ...fields, signature: contractSignature(fields, merchant.appSecret) }),
  });
  return { requestId: response.headers.get('x-request-id'), json: (await response.json()) as { code: number; data: { orderNo: string } } };
}

describe('request ids', () => {
  it('an incoming X-Request-Id that is short and plain is kept and answered back; anything else is replaced', async () => {
    expect((await submit({ 'x-request-id': 'lb-7f3a.1:merchant@edge' })).requestId).toBe('lb-7f3a.1:merchant@edge');
    for (const odd of ['has spaces in it', 'x'.repeat(65), 'semi;colon', '<script>']) {
      const answered = (await submit({ 'x-request-id': odd })).requestId;
      expect(answered).toMatch(GENERATED_ID);
    }
    const first = (await submit({})).requestId;
    const second = (await submit({})).requestId;
    expect(first).toMatch(GENERATED_ID);
    expect(second).not.toBe(first);
    const probe = await fetch(`${bed.app.baseUrl}/healthz`, { headers: { 'x-request-id': 'probe-1' } });
    expect(probe.headers.get('x-request-id')).toBe('probe-1');
  });

  it('one id from the submit to the notification attempt: the order (with its upstream call) and the worker\'s attempt name it and the order', async () => {
    const captured = captureLog();
    try {
      const requestId = 'merchant-req-42';
      const { json } = await submit({ 'x-request-id': requestId });
      expect(json.code).toBe(0);
      const orderNo = json.data.orderNo;
      const { rows } = await getDb().execute<{ trade_no: string; request_id: string }>(sql`
        SELECT s.trade_no, o.request_id FROM sandbox_yht_orders s JOIN orders o ON o.order_no = s.out_trade_no WHERE s.out_trade_no = ${orderNo}`);
      expect(rows[0]!.request_id).toBe(requestId); // stored with the order, for the worker's later attempts

      receiver.answer((_received, res) => res.writeHead(503).end('busy'));
      await paySandboxOrder(getDb(), { tradeNo: rows[0]!.trade_no }); // the upstream's callback: a request of its own
      await new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, clock: systemClock, timeoutMs: 2000 }).runOnce();

      const mine = captured.entries().filter((entry) => entry.requestId === requestId);
      const messages = mine.map((entry) => entry.msg);
      expect(messages).toEqual(expect.arrayContaining(['order created', 'notification attempt failed: retried later']));
      expect(mine.find((entry) => entry.msg === 'order created')).toMatchObject({ component: 'orders', channel: 'YHT', upstreamMs: expect.any(Number) });
      for (const entry of mine) expect(entry.orderNo).toBe(orderNo);
      const attempt = mine.find((entry) => entry.msg === 'notification attempt failed: retried later')!;
      expect(attempt).toMatchObject({ component: 'notifications', attempt: 1, result: 'retried', httpStatus: 503 });
    } finally {
      captured.stop();
    }
  });
});
