/**
 * The benchmark's baseline: the best plain node:http + pg implementation of the open API's USDT submit and query we
 * can write, on its own tables (bench/bare-schema.ts), without the service's code or SQL: merchants cached in memory,
 * MD5 signature check, validation, then ONE round trip per request on a prepared statement (submit: an insert that a
 * unique index over pending (address, amount) arbitrates; only a conflict costs a second look).
 *
 *   DATABASE_URL=... PORT=0 node --import tsx bench/bare-server.ts     prints `READY <port>` when listening
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import pg from 'pg';
import { QUERY_PATH, SUBMIT_PATH } from './contract';
import { contractSignature } from '../test/beds/contract-signer';

const PUBLIC_BASE_URL = process.env.PUBLIC_BASE_URL ?? 'http://localhost:3000';
const WINDOW_MS = 30 * 60_000;
const MAX_AMOUNT_MINOR = 100_000_000n; // a fixed per-order limit (1,000,000.00 USDT)

interface MerchantRow {
  id: number;
  app_secret: string;
  can_order: boolean;
}
interface OrderRow {
  order_no: string;
  merchant_order_no: string;
  amount: string;
  pay_amount: string;
  status: string;
  pay_token: string;
  expires_at: Date;
}

type Fields = Record<string, string | undefined>;

class Refusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 20) });
pool.on('error', () => undefined);

function parseFields(body: string): Fields {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new Refusal(1003, 'request body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Refusal(1003, 'request body must be a JSON object');
  const fields: Fields = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (value === null || value === '') continue;
    if (typeof value === 'object') throw new Refusal(1003, `${name} must be a string`);
    fields[name] = String(value);
  }
  return fields;
}

/** Merchants by AppID, read once per MERCHANT_CACHE_MS: a merchant's settings change rarely. */
const MERCHANT_CACHE_MS = 5_000;
const merchantCache = new Map<string, { merchant: MerchantRow | undefined; readAt: number }>();

async function merchantByAppId(appId: string): Promise<MerchantRow | undefined> {
  const cached = merchantCache.get(appId);
  if (cached && Date.now() - cached.readAt < MERCHANT_CACHE_MS) return cached.merchant;
  const { rows } = await pool.query<MerchantRow>({ name: 'bare_merchant', text: 'SELECT id, app_secret, can_order FROM bare_merchants WHERE app_id = $1', values: [appId] });
  merchantCache.set(appId, { merchant: rows[0], readAt: Date.now() });
  return rows[0];
}

async function authenticate(fields: Fields): Promise<MerchantRow> {
  if (!fields.appId) throw new Refusal(1003, 'appId is required');
  const merchant = await merchantByAppId(fields.appId);
  if (!merchant) throw new Refusal(1005, 'merchant not found');
  const expected = Buffer.from(contractSignature(fields, merchant.app_secret));
  const given = Buffer.from((fields.signature ?? '').toUpperCase());
  if (given.length !== expected.length || !timingSafeEqual(expected, given)) throw new Refusal(1002, 'signature error');
  return merchant;
}

/** "12.5" → 1250n; undefined unless a positive decimal with at most two places. */
function amountMinor(text: string | undefined): bigint | undefined {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text ?? '');
  if (!match) return undefined;
  return BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
}

function merchantOrderNoOf(fields: Fields): string {
  const value = fields.merchantOrderNo;
  if (!value || !/^[\x21-\x7e]{1,64}$/.test(value)) throw new Refusal(1003, 'merchantOrderNo is required');
  return value;
}

function minorText(value: string): string {
  const minor = BigInt(value);
  return `${minor / 100n}.${(minor % 100n).toString().padStart(2, '0')}`;
}

function orderData(order: OrderRow) {
  const status = order.status === 'paid' ? '1' : order.status === 'closed' || order.expires_at.getTime() <= Date.now() ? '2' : '0';
  return {
    orderNo: order.order_no,
    merchantOrderNo: order.merchant_order_no,
    payUrl: `${PUBLIC_BASE_URL}/pay/${order.pay_token}`,
    pay_usdt: minorText(order.pay_amount),
    pay_money: '0.00',
    status,
  };
}

async function findOrder(merchantId: number, merchantOrderNo: string): Promise<OrderRow | undefined> {
  const { rows } = await pool.query<OrderRow>({
    name: 'bare_find_order',
    text: `SELECT order_no, merchant_order_no, amount, pay_amount, status, pay_token, expires_at FROM bare_orders
           WHERE merchant_id = $1 AND merchant_order_no = $2`,
    values: [merchantId, merchantOrderNo],
  });
  return rows[0];
}

let addressIds: number[] | undefined;
async function addresses(): Promise<number[]> {
  addressIds ??= (await pool.query<{ id: number }>('SELECT id FROM bare_addresses ORDER BY id')).rows.map((row) => row.id); // once: the pool is fixed during a run
  return addressIds;
}

/** The amount on any address where no pending order holds it, else amount + 0.01; the unique index decides races. */
async function submit(fields: Fields): Promise<unknown> {
  const merchant = await authenticate(fields);
  if (!merchant.can_order) throw new Refusal(1004, 'order permission disabled');
  const merchantOrderNo = merchantOrderNoOf(fields);
  const amount = amountMinor(fields.pay_usdt);
  if (amount === undefined || amount <= 0n) throw new Refusal(1003, 'pay_usdt must be a decimal number greater than 0');
  if (amount > MAX_AMOUNT_MINOR) throw new Refusal(1008, 'pay_usdt exceeds the per-order limit');
  if (!fields.notifyUrl) throw new Refusal(1003, 'notifyUrl is required');

  const all = await addresses();
  const start = randomInt(0, all.length);
  for (const payAmount of [amount, amount + 1n]) {
    for (let index = 0; index < all.length; index += 1) {
      const { rows } = await pool.query<OrderRow>({
        name: 'bare_insert_order',
        text: `INSERT INTO bare_orders (order_no, merchant_id, merchant_order_no, amount, pay_amount, address_id, pay_token, product_name, notify_url, expires_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
               ON CONFLICT DO NOTHING
               RETURNING order_no, merchant_order_no, amount, pay_amount, status, pay_token, expires_at`,
        values: [
          `B${Date.now()}${randomInt(0, 100_000_000)}`,
          merchant.id,
          merchantOrderNo,
          amount.toString(),
          payAmount.toString(),
          all[(start + index) % all.length],
          randomBytes(32).toString('base64url'),
          fields.productName ?? null,
          fields.notifyUrl,
          new Date(Date.now() + WINDOW_MS),
        ],
      });
      if (rows[0]) return orderData(rows[0]);
      // A conflict: the same merchantOrderNo again (answer it, or refuse another amount), or the slot is taken.
      const existing = await findOrder(merchant.id, merchantOrderNo);
      if (existing) {
        if (BigInt(existing.amount) !== amount) throw new Refusal(1007, 'pay_usdt differs from the original order');
        return orderData(existing);
      }
    }
  }
  throw new Refusal(1010, 'no receiving address is free');
}

async function query(fields: Fields): Promise<unknown> {
  const merchant = await authenticate(fields);
  const order = await findOrder(merchant.id, merchantOrderNoOf(fields));
  if (!order) throw new Refusal(1006, 'order not found');
  return orderData(order);
}

function send(res: http.ServerResponse, status: number, envelope: unknown): void {
  const payload = JSON.stringify(envelope);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload) });
  res.end(payload);
}

let unexpected = 0;
let inFlight = 0;
let stopping = false;

const server = http.createServer((req, res) => {
  const handler = req.url === SUBMIT_PATH ? submit : req.url === QUERY_PATH ? query : undefined;
  if (!handler || req.method !== 'POST') {
    send(res, 404, { code: 1003, message: 'not found', data: null });
    return;
  }
  inFlight += 1;
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    Promise.resolve()
      .then(() => handler(parseFields(Buffer.concat(chunks).toString('utf8'))))
      .then((data) => send(res, 200, { code: 0, message: 'success', data }))
      .catch((error: unknown) => {
        if (error instanceof Refusal) send(res, 200, { code: error.code, message: error.message, data: null });
        else {
          unexpected += 1;
          if (unexpected <= 5) console.error('bare: unexpected failure', error);
          send(res, 500, { code: 1000, message: 'internal error', data: null });
        }
      })
      .finally(() => {
        inFlight -= 1;
        if (stopping && inFlight === 0) void pool.end();
      });
  });
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  console.log(`READY ${(server.address() as AddressInfo).port}`);
});

// Graceful: finish the requests in flight, then let the event loop drain, so that --cpu-prof writes its profile at exit.
function shutdown() {
  if (stopping) return;
  stopping = true;
  server.close();
  server.closeIdleConnections();
  if (inFlight === 0) void pool.end();
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
