/**
 * npm run bench:reconcile — one ALIPAY day of BENCH_RECONCILE_ROWS (200,000) paid orders reconciled against the
 * simulated Alipay's trade bill of the same day (a zip of GBK CSV, served over HTTP in this process, streamed):
 * download, unzip, decode, stage and match. Prints the time, the findings (a few differences are planted) and the
 * process's peak RSS before and after (the simulator streams the bill out in the same process, so the figure covers
 * both sides). Uses DATABASE_URL's server when set, else the embedded server; works in a scratch database.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createDatabase, type Database } from '../lib/db/client';
import { resolveDatabase } from '../lib/db/connect';
import { applyMigrations } from '../lib/db/migrate';
import { createMerchant } from '../lib/merchants/merchants';
import { addSandboxCredential } from '../lib/cli/credential-add-command';
import { alipaySandboxKeys } from '../lib/channels/alipay/sandbox-keys';
import { reconcileDay } from '../lib/reconciliation/reconcile-day';
import { CHANNELS } from '../lib/channels';
import { beijingDayBounds } from '../lib/reconciliation/beijing-day';
import { handleGateway } from '../sandbox/alipay/gateway';
import { handleBillDownload } from '../sandbox/alipay/bill';
import { createBenchDatabase, dropBenchDatabase } from './fixtures';

const ROWS = Number(process.env.BENCH_RECONCILE_ROWS ?? 200_000);
const DAY = '2026-03-02';
const PLANTED = 10;

/** The simulated gateway and bill files, the response bodies streamed (never buffered) to the socket. */
async function startAlipaySimulator(db: Database) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
      const request = new Request(url, { method: req.method, headers: req.headers as Record<string, string>, body: req.method === 'POST' ? new Uint8Array(Buffer.concat(chunks)) : undefined });
      const response = url.pathname.endsWith('/bill/download') ? handleBillDownload(request, db, await alipaySandboxKeys(db)) : await handleGateway(request, db);
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      if (response.body) Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).pipe(res);
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { gatewayUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sandbox/alipay/gateway.do`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** ROWS orders paid on DAY here and at the simulator, with PLANTED of each difference. */
async function seed(db: Database, merchantId: number, credentialId: number, appId: string) {
  const noon = new Date(beijingDayBounds(DAY)!.start.getTime() + 12 * 3600_000);
  await db.execute(sql`
    INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, status, currency, requested_amount_minor, pay_amount_minor, credential_id, pay_method,
                        product_name, pay_token, expires_at, paid_at, paid_via, trade_no, created_at)
    SELECT 'B' || g, ${merchantId}, 'bench-' || g, 'ALIPAY', CASE WHEN g <= ${PLANTED} THEN 'closed' ELSE 'paid' END, 'CNY', 100 + g % 5000, 100 + g % 5000, ${credentialId}, 'web',
           '月度会员', md5(g::text) || g, ${noon}::timestamptz + interval '30 minutes', CASE WHEN g <= ${PLANTED} THEN NULL ELSE ${noon}::timestamptz + (g % 3600) * interval '1 second' END,
           'alipay-notify', 'T' || g, ${noon}
    FROM generate_series(1, ${ROWS}) AS g`);
  // The last PLANTED orders were never paid at Alipay; the PLANTED before them were paid one fen more.
  await db.execute(sql`
    INSERT INTO sandbox_alipay_trades (trade_no, app_id, out_trade_no, method, amount_minor, subject, time_expire, status, buyer_logon_id, paid_at, created_at)
    SELECT 'T' || g, ${appId}, 'B' || g, 'alipay.trade.page.pay', 100 + g % 5000 + CASE WHEN g > ${ROWS - 2 * PLANTED} THEN 1 ELSE 0 END, '月度会员',
           ${noon}::timestamptz + interval '30 minutes', 'TRADE_SUCCESS', 'san***@sandbox.com', ${noon}::timestamptz + (g % 3600) * interval '1 second', ${noon}
    FROM generate_series(1, ${ROWS - PLANTED}) AS g`);
  await db.execute(sql`ANALYZE`);
}

const megabytes = (kilobytes: number) => `${(kilobytes / 1024).toFixed(0)} MB`;

const target = await resolveDatabase({ migrate: false });
const serverUrl = target.embedded?.serverUrl ?? target.url;
const databaseName = `bench_reconcile_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const databaseUrl = await createBenchDatabase(serverUrl, databaseName);
const db = createDatabase(databaseUrl, 4);
const simulator = await startAlipaySimulator(db);
process.env.ALIPAY_GATEWAY_URL = simulator.gatewayUrl;
try {
  await applyMigrations(databaseUrl);
  const { merchant } = await createMerchant(db, { name: 'Bench merchant', orderPermission: true });
  const credential = await addSandboxCredential(db, { appId: merchant.appId, channel: 'ALIPAY', approve: true, enable: true, actor: 'bench' });
  const keys = await alipaySandboxKeys(db);
  console.error(`bench:reconcile: seeding ${ROWS} paid ALIPAY orders and trades…`);
  await seed(db, merchant.id, credential.id, keys.appId);
  global.gc?.();
  const before = process.resourceUsage().maxRSS;
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const [outcome] = await reconcileDay(db, CHANNELS, { day: DAY, now: () => new Date(), channels: ['ALIPAY'] });
  const seconds = (performance.now() - started) / 1000;
  const peak = process.resourceUsage().maxRSS;
  const { rows } = await db.execute<{ kind: string; count: number }>(sql`SELECT kind, count(*)::int AS count FROM reconciliation_findings GROUP BY kind ORDER BY kind`);
  console.log(`\nreconciliation of one ALIPAY day: ${ROWS} orders here, ${ROWS - PLANTED} trades in the bill (zip of GBK CSV over HTTP), PostgreSQL ${target.embedded ? 'embedded' : 'server'}`);
  console.log(`status ${outcome?.status}${outcome?.detail ? ` (${outcome.detail})` : ''}; upstream ${outcome?.totals?.upstreamCount} rows, here ${outcome?.totals?.oursCount} paid`);
  console.log(`findings: ${rows.map((row) => `${row.kind} ${row.count}`).join(', ')} (planted: ${PLANTED} of each of missing_here, amount_differs, missing_upstream)`);
  console.log(`time: ${seconds.toFixed(1)} s (${Math.round(ROWS / seconds)} rows/s)`);
  console.log(`RSS: ${megabytes(rssBefore / 1024)} before the run; peak RSS of the process ${megabytes(before)} before, ${megabytes(peak)} after`);
} finally {
  await simulator.close();
  await db.$client.end();
  await dropBenchDatabase(serverUrl, databaseName);
  if (target.embedded?.startedHere) await target.embedded.stop();
}
