import type { Database } from '@/lib/db/client';
import { publicBaseUrl } from '@/lib/orders/identifiers';
import { formatYuan, newTradeNo, parseYuan, PAY_METHODS, sandboxMerchantKey, sandboxSign, sandboxSigned, unixSeconds } from './protocol';
import { closeIfExpired, findByOutTradeNo, insertOrder, type SandboxOrder } from './store';

/** The simulated aggregator's API: `POST /sandbox/yht/api/pay/create` and `/api/pay/query`, form in, signed JSON out. */

function json(body: Record<string, string>, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

/** A refusal, signed like every answer when the merchant is known; without a merchant's key it cannot be. */
function refuse(code: string, msg: string, key?: string): Response {
  return json(key === undefined ? { code, msg } : sandboxSigned({ code, msg }, key));
}

function answer(fields: Record<string, string | undefined>, key: string): Response {
  return json(sandboxSigned({ code: 'SUCCESS', msg: 'ok', ...fields }, key));
}

export function cashierUrlFor(tradeNo: string): string {
  return `${publicBaseUrl()}/sandbox/yht/cashier/${tradeNo}`;
}

async function readForm(request: Request): Promise<Record<string, string> | undefined> {
  if (!/^application\/x-www-form-urlencoded/i.test(request.headers.get('content-type') ?? '')) return undefined;
  const text = await request.text();
  if (text.length > 64 * 1024) return undefined;
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (name in fields) return undefined;
    fields[name] = value;
  }
  return fields;
}

/** Reads the form and checks the merchant and its signature; returns the refusal to send otherwise. */
async function authenticated(request: Request): Promise<{ fields: Record<string, string>; key: string } | Response> {
  const fields = await readForm(request);
  if (!fields) return refuse('PARAM_ERROR', 'body must be an application/x-www-form-urlencoded form');
  const key = sandboxMerchantKey(fields.mchNo);
  if (!key) return refuse('MCH_NOT_EXIST', 'unknown mchNo');
  if (!fields.sign || fields.sign.toUpperCase() !== sandboxSign(fields, key)) return refuse('SIGN_ERROR', 'signature mismatch', key);
  if (!fields.nonceStr) return refuse('PARAM_ERROR', 'nonceStr is required', key);
  return { fields, key };
}

function orderFields(order: SandboxOrder) {
  return {
    mchNo: order.mchNo,
    outTradeNo: order.outTradeNo,
    tradeNo: order.tradeNo,
    amount: formatYuan(order.amountMinor),
    payMethod: order.payMethod,
  };
}

function isHttpUrl(text: string | undefined): boolean {
  try {
    return text !== undefined && ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

export async function handleCreate(request: Request, db: Database, now = new Date()): Promise<Response> {
  const auth = await authenticated(request);
  if (auth instanceof Response) return auth;
  const { fields, key } = auth;
  const amountMinor = parseYuan(fields.amount);
  if (!fields.outTradeNo || fields.outTradeNo.length > 64) return refuse('PARAM_ERROR', 'outTradeNo is required (at most 64 characters)', key);
  if (amountMinor === undefined || amountMinor <= 0n) return refuse('PARAM_ERROR', 'amount must be yuan with exactly 2 decimals, greater than 0', key);
  if (!PAY_METHODS.includes(fields.payMethod ?? '')) return refuse('PARAM_ERROR', 'payMethod is not supported', key);
  if (!fields.subject || fields.subject.length > 128) return refuse('PARAM_ERROR', 'subject is required (at most 128 characters)', key);
  if (!isHttpUrl(fields.notifyUrl)) return refuse('PARAM_ERROR', 'notifyUrl must be an http(s) URL', key);
  if (fields.returnUrl && !isHttpUrl(fields.returnUrl)) return refuse('PARAM_ERROR', 'returnUrl must be an http(s) URL', key);
  const expireSeconds = /^\d{1,12}$/.test(fields.expireTime ?? '') ? Number(fields.expireTime) : NaN;
  if (!(expireSeconds * 1000 > now.getTime())) return refuse('PARAM_ERROR', 'expireTime must be a future Unix time in seconds', key);

  const existing = await findByOutTradeNo(db, fields.mchNo!, fields.outTradeNo);
  const order =
    existing ??
    (await insertOrder(db, {
      tradeNo: newTradeNo(now),
      mchNo: fields.mchNo!,
      outTradeNo: fields.outTradeNo,
      amountMinor,
      payMethod: fields.payMethod!,
      subject: fields.subject,
      notifyUrl: fields.notifyUrl!,
      returnUrl: fields.returnUrl || null,
      expireAt: new Date(expireSeconds * 1000),
      createdAt: now,
    })) ??
    (await findByOutTradeNo(db, fields.mchNo!, fields.outTradeNo))!;
  if (order.amountMinor !== amountMinor || order.payMethod !== fields.payMethod) {
    return refuse('ORDER_EXISTS', 'outTradeNo was used for another amount or payMethod', key);
  }
  const cashierUrl = cashierUrlFor(order.tradeNo);
  return answer({ ...orderFields(order), cashierUrl, qrContent: cashierUrl }, key);
}

export async function handleQuery(request: Request, db: Database, now = new Date()): Promise<Response> {
  const auth = await authenticated(request);
  if (auth instanceof Response) return auth;
  const { fields, key } = auth;
  if (!fields.outTradeNo) return refuse('PARAM_ERROR', 'outTradeNo is required', key);
  const found = await findByOutTradeNo(db, fields.mchNo!, fields.outTradeNo);
  if (!found) return refuse('ORDER_NOT_EXIST', 'no such order', key);
  const order = await closeIfExpired(db, found, now);
  return answer({ ...orderFields(order), status: order.status, payTime: order.paidAt ? unixSeconds(order.paidAt) : undefined }, key);
}
