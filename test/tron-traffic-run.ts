/**
 * A mainnet hour (or minutes) on the sandbox TRON node, faster than real time: background traffic at `perSecond`,
 * some blocks reaching the node late, our payments mixed in (an order each, created a minute before it is paid), the
 * node enforcing TronGrid's documented limits, and optionally a 403/429 storm. The watcher under test polls every
 * `pollMs` of simulated time, the node's clock set to the same time before each poll. Measures what the issue asks:
 * requests (counted by the node), payments missed or credited twice, final → credited latency, the watcher's CPU.
 * Used by the mainnet-traffic tests and by `npm run bench:chain`.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Clock } from '../lib/clock';
import type { Database } from '../lib/db/client';
import { tronAddressFromAccountBytes } from '../lib/channels/usdt/tron/address';
import { generateBackgroundTraffic } from '../sandbox/tron/traffic';
import { sendSandboxTransfer } from '../sandbox/tron/ledger';

export interface TrafficPayment {
  /** Simulated time the payer sends it (ms). */
  atMs: number;
  /** The payment's block reaches the node this late. */
  indexDelayMs?: number;
}

export interface TrafficRunOptions {
  db: Database;
  /** The node's base URL (…/sandbox/tron/nodes/<node>) and its test hooks' base (…/sandbox/tron). */
  nodeUrl: string;
  hookUrl: string;
  node: string;
  startMs: number;
  minutes: number;
  perSecond: number;
  pollMs: number;
  /** The node's solidification delay (SANDBOX_TRON_CONFIRM_MS, as the node process reads it). */
  confirmMs: number;
  lateShare?: number;
  maxLateMs?: number;
  payments: TrafficPayment[];
  storm?: { atMs: number; seconds: number; status: 403 | 429 };
  limits?: { perSecond: number; dailyQuota: number };
  /** One watcher pass at the simulated time (the clock it must use). */
  watch(clock: Clock): Promise<unknown>;
  merchantId: number;
}

export interface TrafficRunFigures {
  polls: number;
  requests: number;
  requestsWhileBlocked: number;
  /** requests × (a day / the simulated time). */
  requestsPerDay: number;
  payments: number;
  credited: number;
  missed: number;
  /** Orders whose transfer was recorded more than once, or notified more than once. */
  duplicates: number;
  /** Seconds from the block being final at the node (solidified and received) to the watcher crediting the order. */
  latency: { p50: number; p99: number; max: number };
  /** The same for the payments whose block became final outside the storm. */
  calmLatency: { p50: number; p99: number; max: number };
  watcherCpuMs: number;
  blocks: number;
  backgroundTransfers: number;
}

async function post(url: string, body: unknown): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
}

const percentile = (sorted: number[], share: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!);

export async function runTronTraffic(options: TrafficRunOptions): Promise<TrafficRunFigures> {
  const { db, startMs } = options;
  const endMs = startMs + options.minutes * 60_000;
  const background = await generateBackgroundTraffic(db, { fromMs: startMs - 120_000, toMs: endMs + 180_000, perSecond: options.perSecond, lateShare: options.lateShare, maxLateMs: options.maxLateMs, seed: randomBytes(4).toString('hex') });
  const address = tronAddressFromAccountBytes(randomBytes(20));
  const { rows: addressRows } = await db.execute<{ id: string }>(sql`INSERT INTO receiving_addresses (chain, address) VALUES ('TRC20', ${address}) RETURNING id`);
  const addressId = addressRows[0]!.id;
  // The watcher starts where the simulated time does (both cursor forms: block number, and block time).
  const startBlock = Math.floor(startMs / 3000) - 1;
  await db.execute(sql`DELETE FROM chain_cursors WHERE name LIKE 'usdt-trc20%'`);
  await db.execute(sql`INSERT INTO chain_cursors (name, block_timestamp_ms, block_number) VALUES ('usdt-trc20', ${startBlock * 3000}, NULL), ('usdt-trc20:read-through', ${startBlock * 3000}, ${startBlock})`);
  const orders: { id: number; payment: TrafficPayment; blockNumber: number; txId: string }[] = [];
  for (const [index, payment] of options.payments.entries()) {
    const amount = 100_000 + index; // distinct amounts on one address, in cents
    const { rows } = await db.execute<{ id: string }>(sql`
      INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, currency, requested_amount_minor, pay_amount_minor, chain_type,
                          receiving_address_id, notify_url, pay_token, expires_at, created_at, holds_slot)
      VALUES (${`TR${startMs}${index}`}, ${options.merchantId}, ${`traffic-${startMs}-${index}`}, 'USDT', 'USDT', ${amount}, ${amount}, '1', ${addressId},
              'https://merchant.example/n', ${randomBytes(16).toString('hex')}, ${new Date(payment.atMs + 30 * 60_000)}, ${new Date(payment.atMs - 60_000)}, true)
      RETURNING id`);
    const sent = await sendSandboxTransfer(db, { to: address, amount: `${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, '0')}`, indexDelayMs: payment.indexDelayMs }, payment.atMs);
    orders.push({ id: Number(rows[0]!.id), payment, blockNumber: sent.blockNumber, txId: sent.transactionId });
  }
  await post(`${options.hookUrl}/nodes/${options.node}/fault`, {});
  await post(`${options.hookUrl}/nodes/${options.node}/fault`, { limits: options.limits ?? null });

  const creditedAt = new Map<number, number>();
  let simulated = startMs;
  const clock: Clock = { now: () => new Date(simulated) };
  let polls = 0;
  let cpuMicros = 0;
  let stormSet = false;
  const countedBefore = { requests: 0, requestsWhileBlocked: 0 };
  // Run past the end by the solidification delay and a minute, so that the last payments can be final and read.
  const stopMs = endMs + options.confirmMs + 60_000 + (options.maxLateMs ?? 0);
  // The job waits its interval after each run: the run's own (real) time shifts the next poll, as it does live.
  for (let ranFor = 0; simulated <= stopMs; simulated += options.pollMs + ranFor) {
    const ranFrom = performance.now();
    if (options.storm && !stormSet && simulated >= options.storm.atMs) {
      // Setting a fault zeroes the node's counters: keep what it counted so far.
      const before = (await (await fetch(`${options.hookUrl}/nodes/${options.node}/fault`)).json()) as { requests: number; requestsWhileBlocked: number };
      countedBefore.requests += before.requests;
      countedBefore.requestsWhileBlocked += before.requestsWhileBlocked;
      await post(`${options.hookUrl}/nodes/${options.node}/fault`, { rateLimit: { status: options.storm.status, blockSeconds: options.storm.seconds } });
      stormSet = true;
    }
    await post(`${options.hookUrl}/clock`, { nowMs: simulated });
    const cpu = process.cpuUsage();
    try {
      await options.watch(clock);
    } catch {
      // A pass that found every endpoint blocked: the next poll tries again, as the job would.
    }
    const used = process.cpuUsage(cpu);
    cpuMicros += used.user + used.system;
    polls += 1;
    const waiting = orders.filter((order) => !creditedAt.has(order.id)).map((order) => order.id);
    if (waiting.length > 0) {
      const { rows } = await db.execute<{ id: string }>(sql`SELECT id FROM orders WHERE status = 'paid' AND id = ANY(${sql.raw(`ARRAY[${waiting.join(',')}]::bigint[]`)})`);
      for (const row of rows) creditedAt.set(Number(row.id), simulated + (performance.now() - ranFrom));
    }
    ranFor = Math.round(performance.now() - ranFrom);
  }
  await post(`${options.hookUrl}/clock`, {});
  const counted = (await (await fetch(`${options.hookUrl}/nodes/${options.node}/fault`)).json()) as { requests: number; requestsWhileBlocked: number };
  const report = { requests: counted.requests + countedBefore.requests, requestsWhileBlocked: counted.requestsWhileBlocked + countedBefore.requestsWhileBlocked };

  // Final at the node: solidified (its slot closed, then the delay) and every block up to it received.
  const latencies: number[] = [];
  const calm: number[] = [];
  const storm = options.storm;
  for (const order of orders) {
    const credited = creditedAt.get(order.id);
    if (credited === undefined) continue;
    const { rows } = await db.execute<{ received: string | null }>(sql`
      SELECT max(indexed_at_ms)::text AS received FROM sandbox_tron_transfers WHERE block_number BETWEEN ${Math.floor(startMs / 3000) - 40} AND ${order.blockNumber}`);
    const finalAt = Math.max((order.blockNumber + 1) * 3000 + options.confirmMs, Number(rows[0]?.received ?? 0));
    latencies.push(Math.max(0, credited - finalAt) / 1000);
    if (!storm || finalAt < storm.atMs || finalAt > storm.atMs + storm.seconds * 1000) calm.push(Math.max(0, credited - finalAt) / 1000);
  }
  latencies.sort((a, b) => a - b);
  calm.sort((a, b) => a - b);
  const ids = sql.raw(`ARRAY[${orders.map((order) => order.id).join(',') || '0'}]::bigint[]`);
  const { rows: dup } = await db.execute<{ duplicates: number }>(sql`
    SELECT count(*)::int AS duplicates FROM (
      SELECT o.id FROM orders o LEFT JOIN notifications n ON n.order_id = o.id WHERE o.id = ANY(${ids}) GROUP BY o.id HAVING count(n.id) > 1
      UNION ALL SELECT t.order_id FROM chain_transfers t WHERE t.order_id = ANY(${ids}) GROUP BY t.order_id HAVING count(*) > 1) d`);
  const simulatedMs = options.minutes * 60_000;
  return {
    polls,
    requests: report.requests,
    requestsWhileBlocked: report.requestsWhileBlocked,
    requestsPerDay: Math.round((report.requests * 86_400_000) / (stopMs - startMs)),
    payments: orders.length,
    credited: creditedAt.size,
    missed: orders.length - creditedAt.size,
    duplicates: dup[0]!.duplicates,
    latency: { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), max: latencies.at(-1) ?? 0 },
    calmLatency: { p50: percentile(calm, 0.5), p99: percentile(calm, 0.99), max: calm.at(-1) ?? 0 },
    watcherCpuMs: cpuMicros / 1000,
    blocks: Math.round(simulatedMs / 3000),
    backgroundTransfers: background.transfers,
  };
}
