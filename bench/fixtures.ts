import { createHash, randomBytes, randomInt } from 'node:crypto';
import pg from 'pg';
import { addReceivingAddress } from '../lib/addresses/receiving-addresses';
import { createDatabase } from '../lib/db/client';
import { applyMigrations } from '../lib/db/migrate';
import { createMerchant } from '../lib/merchants/merchants';
import { tronAddressFromAccountBytes } from '../lib/tron/address';

export const SUBMIT_PATH = '/v1/api/open/order/submit';
export const QUERY_PATH = '/v1/api/open/order/query';

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

async function onServer<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function createBenchDatabase(serverUrl: string, name: string): Promise<string> {
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE ${quoteIdent(name)}`));
  return databaseUrl(serverUrl, name);
}

export async function dropBenchDatabase(serverUrl: string, name: string): Promise<void> {
  await onServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
}

/**
 * Fresh statistics. Autovacuum reaches a new database only after a while (one visit per database per naptime), and
 * until then the planner sees `orders` as never analysed: the free-slot query then scans the whole slot index once
 * per (address, amount) pair, costing milliseconds of PostgreSQL CPU per submit for whichever target is unlucky.
 */
export async function analyzeDatabase(url: string): Promise<void> {
  await onServer(url, (client) => client.query('ANALYZE'));
}

/** Migrations, one merchant allowed to order, `addresses` TRC20 receiving addresses. */
export async function seedBenchDatabase(url: string, addresses = 50): Promise<BenchMerchant> {
  await applyMigrations(url);
  const db = createDatabase(url, 4);
  try {
    const { merchant, appSecret } = await createMerchant(db, { name: 'bench merchant', orderPermission: true });
    for (let i = 0; i < addresses; i += 1) {
      await addReceivingAddress(db, 'TRC20', tronAddressFromAccountBytes(randomBytes(20)));
    }
    return { appId: merchant.appId, appSecret };
  } finally {
    await db.$client.end();
  }
}

/**
 * The contract's signature, written here independently of lib/signing: drop `signature` and empty fields, sort the
 * names (ASCII), join `k=v` with `&`, append `&appsecret=SECRET`, MD5, uppercase hex.
 */
export function contractSign(fields: Readonly<Record<string, string | undefined>>, appSecret: string): string {
  const text =
    Object.keys(fields)
      .filter((name) => name !== 'signature' && fields[name] !== undefined && fields[name] !== '')
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((name) => `${name}=${fields[name]}`)
      .join('&') + `&appsecret=${appSecret}`;
  return createHash('md5').update(text, 'utf8').digest('hex').toUpperCase();
}

/** A JSON body with the fields and their signature. */
export function signedBody(fields: Record<string, string>, appSecret: string): string {
  return JSON.stringify({ ...fields, signature: contractSign(fields, appSecret) });
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
