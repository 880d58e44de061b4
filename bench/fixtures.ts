import { randomBytes, randomInt } from 'node:crypto';
import { contractSignature } from '../test/beds/contract-signer';
import { onDatabaseServer } from '../test/database-server';
import { bringPendingOrdersTo } from './pending-orders';
import { addReceivingAddress } from '../lib/channels/usdt/receiving-addresses';
import { createDatabase } from '../lib/db/client';
import { applyMigrations } from '../lib/db/migrate';
import { createMerchant } from '../lib/merchants/merchants';
import { tronAddressFromAccountBytes } from '../lib/channels/usdt/tron/address';

export { QUERY_PATH, SUBMIT_PATH } from './contract';

export interface BenchMerchant {
  appId: string;
  appSecret: string;
}

/** The same server, another database. */
export function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected database name ${name}`);
  return `"${name}"`;
}

export async function createBenchDatabase(serverUrl: string, name: string): Promise<string> {
  await onDatabaseServer(serverUrl, (client) => client.query(`CREATE DATABASE ${quoteIdent(name)}`));
  return databaseUrl(serverUrl, name);
}

export async function dropBenchDatabase(serverUrl: string, name: string): Promise<void> {
  await onDatabaseServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
}

/**
 * Fresh statistics. Autovacuum reaches a new database only after a while (one visit per database per naptime), and
 * until then the planner sees `orders` as never analysed: the free-slot query then scans the whole slot index once
 * per (address, amount) pair, costing milliseconds of PostgreSQL CPU per submit for whichever target is unlucky.
 */
export async function analyzeDatabase(url: string): Promise<void> {
  await onDatabaseServer(url, (client) => client.query('ANALYZE'));
}

/** Migrations, one merchant allowed to order, `addresses` TRC20 receiving addresses. */
export async function seedBenchDatabase(url: string, addresses = 50): Promise<BenchMerchant> {
  await applyMigrations(url);
  const db = createDatabase(url, 4);
  try {
    // The platform's only merchant, at the default pool limits: alone on its pool, no fair-use limit weighs on it
    // (lib/channels/usdt/fair-share.ts), though it holds every pending order (BENCH_PENDING of them).
    const { merchant, appSecret } = await createMerchant(db, { name: 'bench merchant', orderPermission: true });
    for (let i = 0; i < addresses; i += 1) {
      await addReceivingAddress(db, 'TRC20', tronAddressFromAccountBytes(randomBytes(20)));
    }
    return { appId: merchant.appId, appSecret };
  } finally {
    await db.$client.end();
  }
}

/** A JSON body with the fields and their signature. */
export function signedBody(fields: Record<string, string>, appSecret: string): string {
  return JSON.stringify({ ...fields, signature: contractSignature(fields, appSecret) });
}

/** 0.01 .. 9999.99 with two decimals: about a million amounts, so (address, amount) slots never run out. */
export function randomAmount(): string {
  const minor = randomInt(1, 1_000_000);
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}

export function submitFields(merchant: BenchMerchant, merchantOrderNo: string, amount = randomAmount()): Record<string, string> {
  return {
    appId: merchant.appId,
    merchantOrderNo,
    payType: 'USDT',
    pay_usdt: amount,
    chainType: '1',
    notifyUrl: 'https://merchant.example/notify',
    productName: 'bench order',
  };
}

export function queryFields(merchant: BenchMerchant, merchantOrderNo: string): Record<string, string> {
  return { appId: merchant.appId, merchantOrderNo, payType: 'USDT' };
}

/** True when the response is HTTP 2xx with envelope code 0. */
export function isSuccess(status: number, body: string): boolean {
  if (status < 200 || status > 299) return false;
  if (body.startsWith('{"code":0,')) return true;
  try {
    return (JSON.parse(body) as { code?: unknown }).code === 0;
  } catch {
    return false;
  }
}

/**
 * The service's database brought to `count` pending USDT orders (from other payers, on amounts above anything the bench
 * submits, each holding its (address, amount) slot), as a busy platform has them.
 */
export async function topUpOurPending(url: string, count: number): Promise<void> {
  await bringPendingOrdersTo(
    url,
    'orders',
    count,
    `INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, currency, requested_amount_minor, pay_amount_minor, chain_type,
                           receiving_address_id, notify_url, pay_token, expires_at, holds_slot)
       SELECT 'BP' || g, (SELECT min(id) FROM merchants), 'pending-' || g, 'USDT', 'USDT', 100000000 + g, 100000000 + g, '1',
              (SELECT min(id) FROM receiving_addresses) + g % (SELECT count(*) FROM receiving_addresses)::int,
              'https://merchant.example/notify', md5('ours' || g), now() + interval '1 hour', true
       FROM generate_series($1::int + 1, $2::int) AS g`,
  );
}
