import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../lib/db/client';
import { addSandboxCredential } from '../lib/cli/credential-add-command';
import { notificationFieldsOf } from '../lib/channels/index';
import { NotificationWorker } from '../lib/notifications/notification-worker';
import { sign } from '../lib/signing';
import { aMerchant, receivingAddresses } from '../test/factories';
import { freePort } from '../test/dev-server-process';
import { startSandboxTestBed } from '../test/beds/sandboxes';
import { EXAMPLE_RUNTIMES } from './example-runtimes';
import { runExample, startExampleReceiver } from './run-example';
import { startSandboxPayments } from './sandbox-payments';

/** The paid state as each channel's query answers it. */
const PAID_STATUS = { USDT: '1', ALIPAY: 2, WECHAT: 2, YHT: '1' } as const;

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let payments: Awaited<ReturnType<typeof startSandboxPayments>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;

beforeAll(async () => {
  bed = await startSandboxTestBed();
  payments = await startSandboxPayments();
  merchant = await aMerchant();
  for (const channel of ['ALIPAY', 'WECHAT']) await addSandboxCredential(getDb(), { appId: merchant.appId, channel, approve: true, enable: true, actor: 'test' });
  await receivingAddresses(1);
});
afterAll(async () => {
  await payments?.close();
  await bed?.close();
});

async function notificationStatus(merchantOrderNo: string): Promise<string | undefined> {
  const { rows } = await getDb().execute<{ status: string }>(sql`
    SELECT n.status FROM notifications n JOIN orders o ON o.id = n.order_id WHERE o.merchant_order_no = ${merchantOrderNo}`);
  return rows[0]?.status;
}

const paidOrders = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

describe.each(EXAMPLE_RUNTIMES)('the $label example, run by its own runtime', (example) => {
  it('submits an order on each channel, is paid in the sandbox, records the verified notification, queries it paid; refuses a forged one', async () => {
    const started = performance.now();
    const paidOrdersFile = path.join(mkdtempSync(path.join(tmpdir(), `example-${example.language}-`)), 'paid-orders.txt');
    const env = { ...process.env, BASE_URL: bed.app.baseUrl, APP_ID: merchant.appId, APP_SECRET: merchant.appSecret, PAID_ORDERS_FILE: paidOrdersFile };
    const port = await freePort();
    const receiver = await startExampleReceiver(example.receiver(port), port, env);
    try {
      for (const channel of ['USDT', 'ALIPAY', 'WECHAT', 'YHT'] as const) {
        const merchantOrderNo = `EX-${example.language}-${channel}-${Date.now()}`;
        const submitted = await runExample(example.command(['submit', channel, merchantOrderNo, '10.50', receiver.url]), env);
        expect(submitted.exitCode, `${channel} submit: ${submitted.stdout}${submitted.stderr}`).toBe(0);
        const answer = JSON.parse(submitted.stdout);
        expect(answer, channel).toMatchObject({ code: 0, data: { merchantOrderNo } });

        await payments.pay(channel, answer.data);
        await new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, timeoutMs: 10_000 }).runOnce();
        // Delivered means the receiver answered `success`; it may only do so once the order is recorded.
        expect(await notificationStatus(merchantOrderNo), `${channel} notification; receiver said:\n${receiver.output()}`).toBe('delivered');
        expect(paidOrders(paidOrdersFile)).toContain(merchantOrderNo);

        const queried = await runExample(example.command(['query', channel, merchantOrderNo]), env);
        expect(queried.exitCode, `${channel} query: ${queried.stdout}${queried.stderr}`).toBe(0);
        expect(JSON.parse(queried.stdout).data.status, channel).toBe(PAID_STATUS[channel]);
      }

      // A notification signed with another secret: refused, and nothing recorded.
      const forged = { appId: merchant.appId, orderNo: 'U-FORGED', merchantOrderNo: 'FORGED-1', payType: 'USDT', pay_usdt: '10.50', status: 'PAID', payTime: '1700000000', tradeNo: 'tx' };
      const response = await fetch(receiver.url, { method: 'POST', body: new URLSearchParams({ ...forged, signature: sign(forged, 'not-the-app-secret') }) });
      expect(await response.text()).not.toBe('success');
      expect(paidOrders(paidOrdersFile)).not.toContain('FORGED-1');
    } finally {
      receiver.stop();
    }
    console.log(`examples: ${example.label} ran its four channels in ${Math.round(performance.now() - started)} ms`);
  }, 300_000);
});
