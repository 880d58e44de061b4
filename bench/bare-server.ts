/**
 * The benchmark's baseline: node:http + a pg Pool doing the same database work as the service's open API
 * (the same SQL text against the same tables, as named prepared statements like the service's), without the Web
 * Request/Response layer, Drizzle's query building/row mapping or the service's validation layer.
 *
 *   DATABASE_URL=... PORT=0 node --import tsx bench/bare-server.ts     prints `READY <port>` when listening
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { and, eq, fillPlaceholders, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { decryptSecret } from '../lib/crypto/secret-box';
import * as schema from '../lib/db/schema';
import { formatMinorUnits, parseMinorUnits } from '../lib/money/decimal-amount';
import { FREE_SLOTS_SQL } from '../lib/orders/create-usdt-order';
import { newOrderNo, newPayToken, orderTtlMinutes, payUrlFor } from '../lib/orders/identifiers';
import { contractSign, QUERY_PATH, SUBMIT_PATH } from './fixtures';

// The statements the service sends: Drizzle's text for its query-builder statements, generated here once from the
// same schema (so the column lists follow schema changes) and executed per request as plain pool.query calls;
// the raw SQL of lib/orders/create-usdt-order.ts copied verbatim (keep in sync).
const mockDb = drizzle.mock({ schema });
const { merchants, orders, platformSettings } = schema;

interface Statement {
  text: string;
  params: unknown[];
}
function statement(query: { sql: string; params: unknown[] }): Statement {
  return { text: query.sql, params: query.params };
}
/** The statement's values: placeholders by name (through the column's encoder, as Drizzle does), literals as built. */
function values(built: Statement, named: Record<string, unknown>): unknown[] {
  return fillPlaceholders(built.params, named);
}

const MERCHANT = statement(
  mockDb.select().from(merchants).where(eq(merchants.appId, sql.placeholder('appId'))).limit(1).toSQL(),
);
const ORDER = statement(
  mockDb
    .select()
    .from(orders)
    .where(and(eq(orders.merchantId, sql.placeholder('merchantId')), eq(orders.merchantOrderNo, sql.placeholder('merchantOrderNo'))))
    .limit(1)
    .toSQL(),
);
const SETTINGS = statement(
  mockDb.select().from(platformSettings).where(eq(platformSettings.key, sql.placeholder('key'))).limit(1).toSQL(),
);
// The INSERT for the fields the benchmark sends (productName and notifyUrl given; redirectUrl, attach not).
const INSERT = statement(
  mockDb
    .insert(orders)
    .values({
      orderNo: sql.placeholder('orderNo'),
      merchantId: sql.placeholder('merchantId'),
      merchantOrderNo: sql.placeholder('merchantOrderNo'),
      channel: 'USDT',
      currency: 'USDT',
      requestedAmountMinor: sql.placeholder('requestedAmountMinor'),
      payAmountMinor: sql.placeholder('payAmountMinor'),
      chainType: sql.placeholder('chainType'),
      receivingAddressId: sql.placeholder('receivingAddressId'),
      productName: sql.placeholder('productName'),
      notifyUrl: sql.placeholder('notifyUrl'),
      payToken: sql.placeholder('payToken'),
      expiresAt: sql.placeholder('expiresAt'),
      holdsSlot: true,
    })
    .onConflictDoNothing()
    .returning()
    .toSQL(),
);

interface MerchantRow {
  id: string;
  app_secret_encrypted: string;
  order_permission: boolean;
}
interface OrderRow {
  order_no: string;
  merchant_order_no: string;
  channel: string;
  status: string;
  requested_amount_minor: string;
  pay_amount_minor: string;
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

async function authenticate(fields: Fields): Promise<MerchantRow> {
  const appId = fields.appId;
  if (!appId) throw new Refusal(1003, 'appId is required');
  const { rows } = await pool.query<MerchantRow>({ name: 'bare_merchant', text: MERCHANT.text, values: values(MERCHANT, { appId }) });
  const row = rows[0];
  if (!row) throw new Refusal(1005, 'merchant not found');
  const secret = decryptSecret(row.app_secret_encrypted);
  const expected = Buffer.from(contractSign(fields, secret));
  const given = Buffer.from((fields.signature ?? '').toUpperCase());
  if (given.length !== expected.length || !timingSafeEqual(expected, given)) throw new Refusal(1002, 'signature error');
  return row;
}

function findOrder(merchantId: string, merchantOrderNo: string): Promise<OrderRow | undefined> {
  return pool.query<OrderRow>({ name: 'bare_order', text: ORDER.text, values: values(ORDER, { merchantId, merchantOrderNo }) }).then((result) => result.rows[0]);
}

function status(order: OrderRow): string {
  if (order.status === 'paid') return '1';
  if (order.status === 'closed' || order.expires_at.getTime() <= Date.now()) return '2';
  return '0';
}

function createData(order: OrderRow) {
  return {
    orderNo: order.order_no,
    merchantOrderNo: order.merchant_order_no,
    payUrl: payUrlFor(order.pay_token),
    pay_usdt: formatMinorUnits(BigInt(order.pay_amount_minor)),
    pay_money: '0.00',
    status: status(order),
  };
}

function requireOrderNo(fields: Fields): string {
  const merchantOrderNo = fields.merchantOrderNo;
  if (!merchantOrderNo || !/^[\x21-\x7e]{1,64}$/.test(merchantOrderNo)) throw new Refusal(1003, 'merchantOrderNo is required');
  return merchantOrderNo;
}

async function submit(fields: Fields): Promise<unknown> {
  const merchant = await authenticate(fields);
  if (!merchant.order_permission) throw new Refusal(1004, 'order permission disabled');
  const merchantOrderNo = requireOrderNo(fields);
  const amount = parseMinorUnits(fields.pay_usdt ?? '');
  if (amount === undefined || amount <= 0n) throw new Refusal(1003, 'pay_usdt must be a decimal number greater than 0');
  if (!fields.notifyUrl) throw new Refusal(1003, 'notifyUrl is required');

  const existing = await findOrder(merchant.id, merchantOrderNo);
  if (existing) {
    if (BigInt(existing.requested_amount_minor) !== amount) throw new Refusal(1007, 'pay_usdt differs from the original order');
    return createData(existing);
  }
  const { rows: settings } = await pool.query<{ value: string }>({ name: 'bare_settings', text: SETTINGS.text, values: values(SETTINGS, { key: 'usdt_max_per_order_minor' }) });
  const limit = settings[0] ? BigInt(settings[0].value) : 1_000_000n;
  if (amount > limit) throw new Refusal(1008, 'pay_usdt exceeds the platform per-order limit');

  const amountText = amount.toString();
  const nextText = (amount + 1n).toString();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + orderTtlMinutes() * 60_000);
  for (let round = 0; round < 3; round += 1) {
    const { rows: slots } = await pool.query<{ address_id: string; amount: string }>({ name: 'bare_free_slots', text: FREE_SLOTS_SQL, values: [amountText, nextText, new Date(0)] });
    if (slots.length === 0) break;
    for (const slot of slots) {
      const { rows } = await pool.query<OrderRow>({
        name: 'bare_insert',
        text: INSERT.text,
        values: values(INSERT, {
          orderNo: newOrderNo('USDT', now),
          merchantId: merchant.id,
          merchantOrderNo,
          requestedAmountMinor: amountText,
          payAmountMinor: slot.amount,
          chainType: fields.chainType ?? '1',
          receivingAddressId: slot.address_id,
          productName: fields.productName ?? null,
          notifyUrl: fields.notifyUrl,
          payToken: newPayToken(),
          expiresAt,
        }),
      });
      if (rows[0]) return createData(rows[0]);
      const raced = await findOrder(merchant.id, merchantOrderNo);
      if (raced) return createData(raced);
    }
  }
  throw new Refusal(1010, 'no receiving address is free');
}

async function query(fields: Fields): Promise<unknown> {
  const merchant = await authenticate(fields);
  const order = await findOrder(merchant.id, requireOrderNo(fields));
  if (!order || order.channel !== 'USDT') throw new Refusal(1006, 'order not found');
  return { ...createData(order), recovered: true };
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
