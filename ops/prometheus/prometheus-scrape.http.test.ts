import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../lib/clock';
import { getDb } from '../../lib/db/client';
import { notificationFieldsOf } from '../../lib/channels';
import { NotificationWorker } from '../../lib/notifications/notification-worker';
import { paySandboxOrder } from '../../sandbox/yht/pay';
import { aMerchant } from '../../test/factories';
import { startMerchantReceiver } from '../../test/beds/merchant-receiver';
import { SUBMIT, startSandboxTestBed } from '../../test/beds/sandboxes';
import { yhtSubmit } from '../../test/yht-sandbox';
import { prometheusBinary } from '../../test/prometheus-binaries';

/**
 * A real Prometheus (Debian's package) scrapes the service's /metrics with the bearer token every second; after a
 * paid sandbox order and a notification its merchant refuses, its query API must show the series with their values.
 */
let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let prometheus: { process: ChildProcess; url: string; dir: string; output: string[] };
const token = randomBytes(24).toString('base64url');

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startPrometheus(target: string): Promise<typeof prometheus> {
  const binary = prometheusBinary('prometheus');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'prometheus-test-'));
  await writeFile(path.join(dir, 'token'), token);
  await writeFile(
    path.join(dir, 'prometheus.yml'),
    [
      'global:',
      '  scrape_interval: 1s',
      '  scrape_timeout: 1s',
      'scrape_configs:',
      '  - job_name: payment-web',
      '    metrics_path: /metrics',
      '    authorization:',
      '      type: Bearer',
      `      credentials_file: ${path.join(dir, 'token')}`,
      '    static_configs:',
      `      - targets: ['${target}']`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const child = spawn(
    binary,
    [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 250))) {
    if (child.exitCode !== null) throw new Error(`prometheus exited (${child.exitCode}): ${output.join('')}`);
    if (await fetch(`${url}/-/ready`).then((response) => response.ok, () => false)) return { process: child, url, dir, output };
  }
  child.kill('SIGKILL');
  throw new Error(`prometheus did not get ready within 30 s: ${output.join('')}`);
}

/** The instant value of a PromQL expression, or undefined while it has none. */
async function query(expression: string): Promise<number | undefined> {
  const response = await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(expression)}`);
  const body = (await response.json()) as { status: string; data: { result: { value: [number, string] }[] } };
  expect(body.status).toBe('success');
  return body.data.result.length === 0 ? undefined : Number(body.data.result[0]!.value[1]);
}

/** Waits for Prometheus to have scraped a value of `expression` that `accept` takes (a scrape every second). */
async function scraped(expression: string, accept: (value: number) => boolean): Promise<number> {
  let last: number | undefined;
  for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 500))) {
    last = await query(expression);
    if (last !== undefined && accept(last)) return last;
  }
  throw new Error(`${expression} was ${last} after 30 s of scrapes; prometheus said: ${prometheus.output.join('')}`);
}

beforeAll(async () => {
  process.env.METRICS_TOKEN = token;
  bed = await startSandboxTestBed();
  prometheus = await startPrometheus(new URL(bed.app.baseUrl).host);
});
afterAll(async () => {
  delete process.env.METRICS_TOKEN;
  prometheus?.process.kill('SIGTERM');
  await bed?.close();
  if (prometheus) await rm(prometheus.dir, { recursive: true, force: true });
});

describe('a real Prometheus scraping the service', () => {
  it('sees the paid sandbox order and the refused notification, with the right values', async () => {
    expect(await scraped('up{job="payment-web"}', (value) => value === 1)).toBe(1); // the bearer token was accepted

    const merchant = await aMerchant();
    const receiver = await startMerchantReceiver(merchant.appSecret);
    try {
      receiver.answer((_received, res) => res.writeHead(500).end('down for maintenance'));
      const { json } = await bed.app.signedPost(SUBMIT, yhtSubmit(merchant.appId, { notifyUrl: receiver.url }), merchant.appSecret);
      expect(json.code).toBe(0);
      const { rows } = await getDb().execute<{ trade_no: string }>(sql`SELECT trade_no FROM sandbox_yht_orders WHERE out_trade_no = ${json.data.orderNo}`);
      await paySandboxOrder(getDb(), { tradeNo: rows[0]!.trade_no });
      await new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, clock: systemClock, timeoutMs: 2000 }).runOnce();
    } finally {
      await receiver.close();
    }

    expect(await scraped('payment_notifications_total{channel="YHT",result="retried"}', (value) => value >= 1)).toBe(1);
    expect(await query('payment_notifications_total{channel="YHT",result="delivered"}')).toBeUndefined();
    expect(await query('payment_orders_total{channel="YHT",event="created"}')).toBe(1);
    expect(await query('payment_orders_total{channel="YHT",event="paid"}')).toBe(1);
    expect(await query('payment_open_api_requests_total{endpoint="submit",channel="YHT",code="0"}')).toBe(1);
    expect(await query('payment_open_api_request_duration_seconds_count{endpoint="submit",channel="YHT"}')).toBe(1);
    expect(await query('payment_upstream_calls_total{channel="YHT",operation="create",outcome="ok"}')).toBe(1);
    expect(await query('payment_callbacks_received_total{channel="YHT"}')).toBe(1);
    expect(await query('payment_callbacks_total{channel="YHT",outcome="accepted",reason="paid"}')).toBe(1);
    // The refused attempt's retry is planned for later: nothing is due now, and the database figures were read.
    expect(await query('payment_notifications_due')).toBe(0);
    expect(await query('payment_metrics_database_up')).toBe(1);
    expect(await query('payment_db_pool_connections{state="waiting"}')).toBe(0);
  });
});
