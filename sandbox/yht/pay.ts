import type { Database } from '@/lib/db/client';
import { formatYuan, nonce, sandboxMerchantKey, sandboxSigned, unixSeconds } from './protocol';
import { closeIfExpired, findAnyByOutTradeNo, findByTradeNo, markPaid, recordNotify, type SandboxOrder } from './store';

export class SandboxPayRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxPayRefused';
  }
}

export interface CallbackResult {
  url: string;
  httpStatus?: number;
  body: string;
  error?: string;
  acknowledged: boolean;
}

export interface PayResult {
  order: SandboxOrder;
  /** Whether this call moved the order to SUCCESS (false: it was already paid; the callback is sent again). */
  newlyPaid: boolean;
  callback?: CallbackResult;
}

/** The signed asynchronous callback of a paid order, as the aggregator sends it. */
export function callbackForm(order: SandboxOrder): Record<string, string> {
  const key = sandboxMerchantKey(order.mchNo);
  if (!key) throw new SandboxPayRefused(`merchant ${order.mchNo} is no longer known to the sandbox`);
  return sandboxSigned(
    {
      mchNo: order.mchNo,
      outTradeNo: order.outTradeNo,
      tradeNo: order.tradeNo,
      amount: formatYuan(order.amountMinor),
      payMethod: order.payMethod,
      status: 'SUCCESS',
      payTime: unixSeconds(order.paidAt ?? new Date()),
      nonceStr: nonce(),
    },
    key,
  );
}

/** POSTs the callback to the order's notifyUrl and records the answer; `success` acknowledges it. */
export async function sendCallback(db: Database, order: SandboxOrder, now = new Date()): Promise<CallbackResult> {
  let result: CallbackResult;
  try {
    const response = await fetch(order.notifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: new URLSearchParams(callbackForm(order)).toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await response.text()).slice(0, 1024);
    result = { url: order.notifyUrl, httpStatus: response.status, body, acknowledged: response.ok && body.trim() === 'success' };
  } catch (error) {
    result = { url: order.notifyUrl, body: '', error: error instanceof Error ? error.message : String(error), acknowledged: false };
  }
  await recordNotify(db, order, now, result.error ? `error: ${result.error}` : `HTTP ${result.httpStatus} ${JSON.stringify(result.body.slice(0, 200))}`);
  return result;
}

/**
 * The payer pays: a waiting order becomes SUCCESS and the callback is sent. Paying an order that is already paid
 * sends the callback again (as the aggregator's retries would). `sendCallback: false` simulates a lost callback.
 */
export async function paySandboxOrder(
  db: Database,
  ref: { tradeNo: string } | { outTradeNo: string },
  options: { sendCallback?: boolean; now?: Date } = {},
): Promise<PayResult> {
  const now = options.now ?? new Date();
  const found = 'tradeNo' in ref ? await findByTradeNo(db, ref.tradeNo) : await findAnyByOutTradeNo(db, ref.outTradeNo);
  if (!found) throw new SandboxPayRefused(`no sandbox YHT order ${'tradeNo' in ref ? ref.tradeNo : ref.outTradeNo}`);
  const current = await closeIfExpired(db, found, now);
  if (current.status === 'CLOSED') throw new SandboxPayRefused(`order ${current.outTradeNo} is closed (expired at ${current.expireAt.toISOString()})`);
  const paid = current.status === 'WAITING' ? await markPaid(db, current, now) : current;
  const newlyPaid = current.status === 'WAITING' && paid.status === 'SUCCESS';
  if (options.sendCallback === false) return { order: paid, newlyPaid };
  return { order: paid, newlyPaid, callback: await sendCallback(db, paid, now) };
}
