import { randomBytes } from 'node:crypto';
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
import { startUpstreamSimulators, type UpstreamSimulators } from '../test/beds/sandboxes';
import { SERVER_COMMANDS, startRealServer, type RealServer, type ServerMode } from '../test/real-server';
import { sendWithCurlHttp2, sendWithJavaDefaultClient, webSocketStatusLine } from '../test/upgrade-clients';
import type { NotificationKind } from '../lib/db/schema/notification-kinds';
import { builtExampleRuntimes, EXAMPLE_RUNTIMES, type ExampleRuntime } from './example-runtimes';
import { ReceiverPortTaken, runExample, startExampleReceiver } from './run-example';
import { startSandboxPayments } from './sandbox-payments';
import { planWechatRefund, settleSandboxWechatRefund } from '../sandbox/wechat/refund';
import { eventually } from '../test/wait-for';

/** The paid state as each channel's query answers it. */
const PAID_STATUS = { USDT: '1', ALIPAY: 2, WECHAT: 2, YHT: '1' } as const;

/**
 * Every example runs against production. Against development, the one thing a client can meet that production does
 * not do is the upgrade offer taken up (development's hot-reload WebSocket): the example whose default client offers
 * one (Java's HttpClient, h2c on http://) runs there too, after the upgrade test; the others' clients never offer one.
 */
const runtimesAgainst = (mode: ServerMode) => (mode === 'production' ? EXAMPLE_RUNTIMES : EXAMPLE_RUNTIMES.filter((example) => example.language === 'java'));

let simulators: UpstreamSimulators;
let server: RealServer;
let payments: Awaited<ReturnType<typeof startSandboxPayments>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let asBuilt: Awaited<ReturnType<typeof builtExampleRuntimes>>;

async function notificationStatus(merchantOrderNo: string, kind: NotificationKind = 'payment'): Promise<string | undefined> {
  const { rows } = await getDb().execute<{ status: string }>(sql`
    SELECT n.status FROM notifications n JOIN orders o ON o.id = n.order_id WHERE o.merchant_order_no = ${merchantOrderNo} AND n.kind = ${kind}`);
  return rows[0]?.status;
}

/** Delivers every notice due now (a destination gets a few at a time per claim). */
async function deliverNotifications(): Promise<void> {
  const worker = new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, timeoutMs: 10_000 });
  while ((await worker.runOnce()) > 0);
}

/** The lines a receiver recorded in one of its files (PAID_ORDERS_FILE, REFUNDS_FILE). */
const recorded = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

/** The example's receiver on a free port, chosen again when another process took it before the receiver could bind. */
async function receiverOnAFreePort(example: ExampleRuntime, env: NodeJS.ProcessEnv) {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    try {
      return await startExampleReceiver(example.receiver(port), port, env);
    } catch (error) {
      if (!(error instanceof ReceiverPortTaken) || attempt === 3) throw error;
    }
  }
}

/** The example's receiver, on its own port, writing into its own directory; stopped when `body` ends. */
async function withReceiver(example: ExampleRuntime, body: (receiver: { url: string; output(): string }, env: NodeJS.ProcessEnv, files: { paidOrders: string; refunds: string; abnormalRefunds: string }) => Promise<void>) {
  const directory = mkdtempSync(path.join(tmpdir(), `example-${example.language}-`));
  const files = { paidOrders: path.join(directory, 'paid-orders.txt'), refunds: path.join(directory, 'refunds.txt'), abnormalRefunds: path.join(directory, 'abnormal-refunds.txt') };
  const env = {
    ...process.env,
    BASE_URL: server.baseUrl,
    APP_ID: merchant.appId,
    APP_SECRET: merchant.appSecret,
    PAID_ORDERS_FILE: files.paidOrders,
    REFUNDS_FILE: files.refunds,
    ABNORMAL_REFUNDS_FILE: files.abnormalRefunds,
  };
  const receiver = await receiverOnAFreePort(example, env);
  try {
    await body(receiver, env, files);
  } finally {
    receiver.stop();
  }
}

/** Runs one of the example's subcommands (a compiled example's built program) and answers its JSON envelope, failing with its output when it fails. */
async function runCommand(example: ExampleRuntime, args: string[], env: NodeJS.ProcessEnv) {
  const run = await runExample(asBuilt(example).command(args), env);
  expect(run.exitCode, `${args.join(' ')}: ${run.stdout}${run.stderr}`).toBe(0);
  return JSON.parse(run.stdout);
}

/**
 * The examples run against the service as an operator runs it, `npm start` on a production build or `npm run dev`,
 * each program with its language's default HTTP client (Java's prefers HTTP/2 and offers h2c on http://). The
 * upstreams are the channels' simulators on loopback (ALIPAY_GATEWAY_URL and the others point the service at them);
 * the test pays the orders there and delivers the notifications (the service runs with WORKERS=off). A test file per
 * way (examples.test.ts, examples-development.test.ts): the production one runs beside the other files, and only the
 * development one waits for its turn at the checkout's one `npm run dev`.
 */
export function describeTheExamplesAgainst(mode: ServerMode): void {
  beforeAll(async () => {
    // A staging service's own YHT account: production refuses the sandbox's defaults, and the simulator (here and in
    // `npm run sandbox`) takes the account it is given.
    process.env.YHT_MERCHANT_NO = 'YHT-STAGING-20001';
    process.env.YHT_KEY = randomBytes(24).toString('hex');
    asBuilt = await builtExampleRuntimes(mkdtempSync(path.join(tmpdir(), 'examples-built-')), runtimesAgainst(mode));
    simulators = await startUpstreamSimulators();
    payments = await startSandboxPayments();
    merchant = await aMerchant();
    for (const channel of ['ALIPAY', 'WECHAT']) await addSandboxCredential(getDb(), { appId: merchant.appId, channel, approve: true, enable: true, actor: 'test' });
    // The opt-in close notices: the receivers must acknowledge them without taking them for payments.
    await getDb().execute(sql`UPDATE merchants SET close_notices = true WHERE app_id = ${merchant.appId}`);
    await receivingAddresses(2);
  });
  afterAll(async () => {
    await payments?.close();
    await simulators?.close();
  });

  describe(`against ${mode}`, () => {
    beforeAll(async () => {
      // A staging service: the sandbox mounted (SANDBOX_ENABLED), its upstreams the simulators.
      server = await startRealServer(mode, { ...simulators.settings, SANDBOX_ENABLED: 'true' });
      process.env.PUBLIC_BASE_URL = server.baseUrl; // where the simulators and `npm run sandbox` call the service back
    }, 900_000);
    afterAll(async () => {
      await server?.stop();
    });

    it(`answers an h2c upgrade offer (curl --http2, Java's default HttpClient) over HTTP/1.1, on pages and the open API, after a page was served`, async () => {
      const query = { method: 'POST' as const, url: `${server.baseUrl}/v1/api/open/order/query`, json: JSON.stringify({ appId: merchant.appId }) };
      const page = { method: 'GET' as const, url: `${server.baseUrl}/` };
      const probe = { method: 'GET' as const, url: `${server.baseUrl}/healthz` };
      // What a client offering no upgrade gets (Node.js's fetch): the same status over HTTP/1.1 is the right answer.
      const withoutOffer = async (request: typeof query | typeof page) =>
        (await fetch(request.url, request.method === 'POST' ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: request.json } : {})).status;
      for (const request of [page, query, probe]) {
        const answer = await sendWithCurlHttp2(request);
        expect(answer.exitCode, `curl --http2 ${request.url} (${SERVER_COMMANDS[mode]}): ${answer.stderr}`).toBe(0);
        expect({ version: answer.version, status: answer.status }, request.url).toEqual({ version: 'HTTP/1.1', status: await withoutOffer(request) });
      }
      const [home, queried, again] = await sendWithJavaDefaultClient([page, query, query]);
      expect(home).toMatchObject({ version: 'HTTP/1.1', status: 200, body: expect.stringContaining('<html') });
      for (const answer of [queried, again]) expect(answer).toMatchObject({ version: 'HTTP/1.1', status: await withoutOffer(query), body: expect.stringContaining('"code":') });
      // The one WebSocket the service has, development's hot reload, is still taken up; production takes none.
      const hotReload = await webSocketStatusLine(server.baseUrl, '/_next/hmr');
      if (mode === 'development') expect(hotReload).toMatch(/^HTTP\/1\.1 101 /);
      else expect(hotReload).not.toMatch(/ 101 /);
    }, 300_000);

    describe.each(runtimesAgainst(mode))('the $label example, run by its own runtime', (example) => {
      it('submits an order on each channel, is paid in the sandbox, records the verified notification, queries it paid; refuses a forged one', async () => {
        const started = performance.now();
        await withReceiver(example, async (receiver, env, files) => {
          for (const channel of ['USDT', 'ALIPAY', 'WECHAT', 'YHT'] as const) {
            const merchantOrderNo = `EX-${example.language}-${channel}-${Date.now()}`;
            const answer = await runCommand(example, ['submit', channel, merchantOrderNo, '10.50', receiver.url], env);
            expect(answer, channel).toMatchObject({ code: 0, data: { merchantOrderNo } });

            await payments.pay(channel, answer.data);
            await deliverNotifications();
            // Delivered means the receiver answered `success`; it may only do so once the order is recorded.
            expect(await notificationStatus(merchantOrderNo), `${channel} notification; receiver said:\n${receiver.output()}`).toBe('delivered');
            expect(recorded(files.paidOrders)).toContain(merchantOrderNo);

            const queried = await runCommand(example, ['query', channel, merchantOrderNo], env);
            expect(queried.data.status, channel).toBe(PAID_STATUS[channel]);
          }

          // A notification signed with another secret: refused, and nothing recorded.
          const forged = { appId: merchant.appId, orderNo: 'U-FORGED', merchantOrderNo: 'FORGED-1', payType: 'USDT', pay_usdt: '10.50', status: 'PAID', payTime: '1700000000', tradeNo: 'tx' };
          const response = await fetch(receiver.url, { method: 'POST', body: new URLSearchParams({ ...forged, signature: sign(forged, 'not-the-app-secret') }) });
          expect(await response.text()).not.toBe('success');
          expect(recorded(files.paidOrders)).not.toContain('FORGED-1');
        });
        console.log(`examples: ${example.label} ran its four channels in ${Math.round(performance.now() - started)} ms`);
      }, 300_000);

      it('closes a pending order and refunds part of a paid one, queries the refund; records the verified refund notice, and takes the close notice for no payment', async () => {
        const started = performance.now();
        await withReceiver(example, async (receiver, env, files) => {
          const pendingOrderNo = `EX-${example.language}-CLOSE-${Date.now()}`;
          expect((await runCommand(example, ['submit', 'ALIPAY', pendingOrderNo, '20.00', receiver.url], env)).code).toBe(0);
          const closed = await runCommand(example, ['close', pendingOrderNo], env);
          expect(closed).toMatchObject({ code: 0, data: { merchantOrderNo: pendingOrderNo, status: 3 } });

          const paidOrderNo = `EX-${example.language}-REFUND-${Date.now()}`;
          const submitted = await runCommand(example, ['submit', 'ALIPAY', paidOrderNo, '50.00', receiver.url], env);
          await payments.pay('ALIPAY', submitted.data);
          const merchantRefundNo = `EX-${example.language}-RF-${Date.now()}`;
          const refunded = await runCommand(example, ['refund', paidOrderNo, merchantRefundNo, '12.34', receiver.url], env);
          expect(refunded).toMatchObject({
            code: 0,
            data: { merchantRefundNo, merchantOrderNo: paidOrderNo, platformOrderNo: submitted.data.platformOrderNo, payType: 'ALIPAY', refundAmount: '12.34', status: 'succeeded', refundedAmount: '12.34' },
          });
          expect((await runCommand(example, ['refund-query', merchantRefundNo], env)).data).toEqual(refunded.data);
          expect((await runCommand(example, ['query', 'ALIPAY', paidOrderNo], env)).data).toMatchObject({ status: 2, refundedAmount: '12.34' });

          await deliverNotifications();
          const said = `receiver said:\n${receiver.output()}`;
          expect(await notificationStatus(pendingOrderNo, 'closed'), `close notice; ${said}`).toBe('delivered');
          expect(await notificationStatus(paidOrderNo, 'refund'), `refund notice; ${said}`).toBe('delivered');
          expect(recorded(files.refunds)).toEqual([merchantRefundNo]);
          expect(recorded(files.paidOrders)).toEqual([paidOrderNo]);

          // A refund notice signed with another secret: refused, and nothing recorded.
          const forged = { appId: merchant.appId, notifyType: 'refund', merchantRefundNo: 'FORGED-RF-1', merchantOrderNo: paidOrderNo, status: 'succeeded', refundAmount: '1.00' };
          const response = await fetch(receiver.url, { method: 'POST', body: new URLSearchParams({ ...forged, signature: sign(forged, 'not-the-app-secret') }) });
          expect(await response.text()).not.toBe('success');
          expect(recorded(files.refunds)).not.toContain('FORGED-RF-1');
        });
        console.log(`examples: ${example.label} closed, refunded and queried in ${Math.round(performance.now() - started)} ms`);
      }, 300_000);

      it('keeps a WECHAT refund that turned abnormal apart from the succeeded ones (never refunded again), then records its later success', async () => {
        await withReceiver(example, async (receiver, env, files) => {
          const paidOrderNo = `EX-${example.language}-ABNORMAL-${Date.now()}`;
          const submitted = await runCommand(example, ['submit', 'WECHAT', paidOrderNo, '30.00', receiver.url], env);
          await payments.pay('WECHAT', submitted.data);
          await planWechatRefund(getDb(), submitted.data.platformOrderNo, 'abnormal');
          const merchantRefundNo = `EX-${example.language}-AB-${Date.now()}`;
          const refunded = await runCommand(example, ['refund', paidOrderNo, merchantRefundNo, '30.00', receiver.url], env);
          expect(refunded.data).toMatchObject({ merchantRefundNo, status: 'processing' });
          await eventually(async () => (await runCommand(example, ['refund-query', merchantRefundNo], env)).data.status === 'abnormal', 'the refund to turn abnormal', 10_000);
          await deliverNotifications();
          expect(recorded(files.abnormalRefunds), `receiver said:\n${receiver.output()}`).toEqual([merchantRefundNo]);
          expect(recorded(files.refunds)).toEqual([]);

          await settleSandboxWechatRefund(getDb(), refunded.data.refundNo, 'SUCCESS');
          await eventually(async () => (await runCommand(example, ['refund-query', merchantRefundNo], env)).data.status === 'succeeded', 'the refund to succeed', 10_000);
          await deliverNotifications();
          expect(recorded(files.refunds), `receiver said:\n${receiver.output()}`).toEqual([merchantRefundNo]);
        });
      }, 300_000);
    });
  });
}
