/**
 * npm run bench:chain — 100,000 sandbox transfers against 10,000 pending orders on 1,000 addresses.
 * 1. Backlog: the transfers are already confirmed; the watcher (real HTTP to the sandbox chain) scans and matches
 *    them: transfers scanned per second and orders paid per second.
 * 2. Live: transfers arrive at a steady rate while the watcher polls every CHAIN_POLL_MS (3 s by default): time
 *    from a transfer's confirmation to its order being paid, p50/p99.
 * DATABASE_URL's server when set, else the embedded server; works in a scratch database.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { systemClock } from '../lib/clock';
import { USDT_TRC20_CONTRACT, type ChainConfig } from '../lib/channels/usdt/chain/chain-config';
import { ChainEndpointPool } from '../lib/channels/usdt/chain/chain-endpoints';
import { TronGridClient } from '../lib/channels/usdt/chain/trongrid-client';
import { watchChainOnce } from '../lib/channels/usdt/chain/watch-chain';
import { closeDb, getDb, type Database } from '../lib/db/client';
import { resolveDatabase } from '../lib/db/connect';
import { createBenchDatabase, dropBenchDatabase } from './fixtures';
import { benchEvmChain } from './evm-chain';
import { applyMigrations } from '../lib/db/migrate';
import { createMerchant } from '../lib/merchants/merchants';
import { formatMinorUnits } from '../lib/money/decimal-amount';
import { tronAddressFromAccountBytes } from '../lib/channels/usdt/tron/address';
import { handleSandboxTron } from '../sandbox/tron/http-api';
import { sendSandboxTransfer } from '../sandbox/tron/ledger';

const ADDRESSES = 1_000;
const ORDERS = 10_000;
const TRANSFERS = 100_000;
const LIVE_TRANSFERS = Number(process.env.BENCH_CHAIN_LIVE ?? 300);
const LIVE_RATE_PER_SECOND = 30;
const POLL_MS = Number(process.env.CHAIN_POLL_MS ?? 3000);
const CONFIRM_MS = 3000;

async function serveSandboxChain() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const path = url.pathname.replace(/^\/sandbox\/tron/, '').split('/').filter(Boolean);
    void handleSandboxTron(new Request(url, { method: req.method }), path).then(async (response) => {
      res.writeHead(response.status, { 'content-type': 'application/json' });
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sandbox/tron`, close: () => server.close() };
}

/** 1,000 addresses with 10 pending orders each (distinct amounts), created an hour ago with a 2-hour window. */
async function seed(db: Database, merchantId: number) {
  const addresses = Array.from({ length: ADDRESSES }, () => tronAddressFromAccountBytes(randomBytes(20)));
  await db.execute(sql`INSERT INTO receiving_addresses (chain, address) SELECT 'TRC20', unnest(${sql.raw(`ARRAY['${addresses.join("','")}']`)}::text[])`);
  await db.execute(sql`
    INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, currency, requested_amount_minor, pay_amount_minor, chain_type,
                        receiving_address_id, notify_url, pay_token, expires_at, created_at, holds_slot)
    SELECT 'BC' || g, ${merchantId}, 'chain-' || g, 'USDT', 'USDT', 1000 + g, 1000 + g, '1',
           (SELECT id FROM receiving_addresses ORDER BY id OFFSET (g % ${ADDRESSES}) LIMIT 1),
           'https://merchant.example/n', md5(random()::text) || g, now() + interval '1 hour', now() - interval '1 hour', true
    FROM generate_series(1, ${ORDERS}) AS g`);
  return addresses;
}

/**
 * The backlog: one exact payment per order, plus 90,000 other USDT transfers (to strangers, as most of the
 * contract's traffic is, and some wrong amounts to pool addresses), in block order over the last 30 minutes.
 */
async function seedBacklog(db: Database) {
  const start = Date.now() - 30 * 60 * 1000;
  await db.execute(sql`
    INSERT INTO sandbox_tron_transfers (transaction_id, block_number, block_timestamp_ms, from_address, to_address, value_raw)
    SELECT md5('t' || g || random()::text) || md5(g::text), (${start}::bigint + g * 18) / 3000, ${start}::bigint + g * 18, 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
           CASE WHEN g % 10 = 0 THEN a.address WHEN g % 10 = 1 THEN a.address ELSE 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' END,
           CASE WHEN g % 10 = 0 THEN o.pay_amount_minor * 10000 ELSE 1234567 END
    FROM generate_series(1, ${TRANSFERS}) AS g
    JOIN orders o ON o.order_no = 'BC' || (((g - 1) / 10) + 1)
    JOIN receiving_addresses a ON a.id = o.receiving_address_id`);
}

async function countPaid(db: Database): Promise<number> {
  const { rows } = await db.execute<{ paid: number }>(sql`SELECT count(*)::int AS paid FROM orders WHERE status = 'paid'`);
  return rows[0]!.paid;
}

const target = await resolveDatabase({ migrate: false });
const serverUrl = target.embedded?.serverUrl ?? target.url;
const databaseName = `bench_chain_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const scratchUrl = await createBenchDatabase(serverUrl, databaseName);
process.env.DATABASE_URL = scratchUrl;
process.env.SANDBOX_TRON_CONFIRM_MS = String(CONFIRM_MS);
const chain = await serveSandboxChain();
try {
  await applyMigrations(process.env.DATABASE_URL);
  const db = getDb();
  const { merchant } = await createMerchant(db, { name: 'Bench merchant', orderPermission: true });
  const addresses = await seed(db, merchant.id);
  await seedBacklog(db);
  const config: ChainConfig = {
    baseUrls: [chain.url],
    contract: USDT_TRC20_CONTRACT,
    pollMs: POLL_MS,
    initialLookbackMs: 2 * 60 * 60 * 1000,
    rereadMarginMs: 60_000,
    endpointRetryMs: 60_000,
    access: 'sandbox',
  };
  const client = new TronGridClient({ endpoints: ChainEndpointPool.transient(config.baseUrls, systemClock) });

  console.error(`bench:chain: backlog of ${TRANSFERS} confirmed transfers, ${ORDERS} pending orders on ${ADDRESSES} addresses…`);
  const backlogStart = performance.now();
  let events = 0;
  let pages = 0;
  for (;;) {
    const result = await watchChainOnce({ db, clock: systemClock, config, client });
    events += result.events;
    pages += result.pages;
    if (result.events < 200 * result.pages || result.pages === 0) break;
  }
  const backlogSeconds = (performance.now() - backlogStart) / 1000;
  const paid = await countPaid(db);
  const { rows: verdicts } = await db.execute<{ verdict: string; count: number }>(sql`SELECT verdict, count(*)::int AS count FROM chain_transfers GROUP BY 1 ORDER BY 1`);

  console.error(`bench:chain: live — ${LIVE_TRANSFERS} payments at ${LIVE_RATE_PER_SECOND}/s, watcher polling every ${POLL_MS} ms, confirmation after ${CONFIRM_MS} ms…`);
  const { rows: liveOrders } = await db.execute<{ id: string; address: string; amount: string }>(sql`
    INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, currency, requested_amount_minor, pay_amount_minor, chain_type,
                        receiving_address_id, notify_url, pay_token, expires_at, holds_slot)
    SELECT 'BL' || g, ${merchant.id}, 'live-' || g, 'USDT', 'USDT', 900000 + g, 900000 + g, '1',
           (SELECT id FROM receiving_addresses ORDER BY id OFFSET (g % ${ADDRESSES}) LIMIT 1), 'https://merchant.example/n', md5(random()::text) || g, now() + interval '1 hour', true
    FROM generate_series(1, ${LIVE_TRANSFERS}) AS g
    RETURNING id, (SELECT address FROM receiving_addresses r WHERE r.id = receiving_address_id) AS address, pay_amount_minor::text AS amount`);
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      await watchChainOnce({ db, clock: systemClock, config, client });
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  })();
  for (const order of liveOrders) {
    await sendSandboxTransfer(db, { to: order.address, amount: formatMinorUnits(BigInt(order.amount)) });
    await new Promise((resolve) => setTimeout(resolve, 1000 / LIVE_RATE_PER_SECOND));
  }
  const liveIds = sql.raw(`ARRAY[${liveOrders.map((order) => order.id).join(',')}]::bigint[]`);
  for (;;) {
    const { rows } = await db.execute<{ pending: number }>(sql`SELECT count(*)::int AS pending FROM orders WHERE id = ANY(${liveIds}) AND status <> 'paid'`);
    if (rows[0]!.pending === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  watching = false;
  await watcher;
  const { rows: latency } = await db.execute<{ p50: number; p99: number; max: number }>(sql`
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99, max(ms) AS max
    FROM (SELECT extract(epoch FROM o.updated_at - (o.paid_at + make_interval(secs => ${CONFIRM_MS / 1000}))) * 1000 AS ms
          FROM orders o WHERE o.id = ANY(${liveIds})) AS t`);

  console.log(`\nchain: ${TRANSFERS} sandbox transfers (10% exact payments, 10% wrong amounts to pool addresses, 80% to other addresses), ${ORDERS} pending orders on ${addresses.length} addresses, PostgreSQL ${target.embedded ? 'embedded' : 'server'}`);
  console.log(`backlog: ${events} events in ${pages} pages scanned in ${backlogSeconds.toFixed(1)} s → ${(events / backlogSeconds).toFixed(0)} transfers/s scanned, ${paid} orders paid → ${(paid / backlogSeconds).toFixed(0)} matched/s`);
  console.log(`verdicts: ${verdicts.map((row) => `${row.verdict} ${row.count}`).join(', ')}`);
  console.log(`live: ${LIVE_TRANSFERS} payments, confirmation → paid p50 ${Number(latency[0]!.p50).toFixed(0)} ms, p99 ${Number(latency[0]!.p99).toFixed(0)} ms, max ${Number(latency[0]!.max).toFixed(0)} ms (poll interval ${POLL_MS} ms)`);
  await benchEvmChain(db); // the EVM watcher: blocks of 1,000 token transfers, matching cost against pool size
} finally {
  chain.close();
  await closeDb();
  await dropBenchDatabase(serverUrl, databaseName);
  if (target.embedded?.startedHere) await target.embedded.stop();
}
