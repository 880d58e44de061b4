import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { orders, upstreamOrders } from '../../db/schema';
import { parseMinorUnits } from '../../money/decimal-amount';
import { markOrderPaid } from '../../orders/order-status';
import { recordUpstreamCallback, type CallbackVerdict } from '../upstream-callbacks';
import { parseYhtTime } from './client';
import { yhtConfig, YhtNotConfigured, type YhtConfig } from './config';
import type { CallbackReply } from '../../callers/upstream-callback';
import { log } from '../../observability/logger';
import { YHT_CALLBACK_ACK, YHT_CALLBACK_NACK } from './protocol';
import { verifyYhtSign } from './sign';

export interface CallbackOutcome {
  answer: typeof YHT_CALLBACK_ACK | typeof YHT_CALLBACK_NACK;
  verdict: CallbackVerdict;
  detail?: string;
}

/** Verdicts that are answered `success`: the callback is genuine and fully handled, so the upstream may stop. */
const ACKNOWLEDGED: ReadonlySet<CallbackVerdict> = new Set(['paid', 'duplicate', 'ignored', 'late_payment']);

function parseForm(rawBody: string): Record<string, string> | undefined {
  if (rawBody.trim() === '') return undefined;
  const fields: Record<string, string> = Object.create(null);
  for (const [name, value] of new URLSearchParams(rawBody)) {
    if (name in fields) return undefined; // a field given twice: which one was signed?
    fields[name] = value;
  }
  return fields;
}

/** Clocks differ: a payment YHT accepted (it enforces expireTime itself) up to this long after our window is still in time. */
export const CLOCK_TOLERANCE_MS = 60_000;

/** When the upstream says the payer paid; its own time if it is readable and not in the future, else now. */
export function paymentTime(payTime: string | undefined, now: Date): Date {
  const stated = parseYhtTime(payTime);
  return stated && stated.getTime() <= now.getTime() + 60_000 ? stated : now;
}

type Decision = Omit<CallbackOutcome, 'answer'> & { orderId?: number };

async function decide(db: Database, fields: Record<string, string>, rawBody: string, now: Date): Promise<Decision> {
  const outTradeNo = fields.outTradeNo!;
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [row] = await tx
      .select({ order: orders, upstream: upstreamOrders })
      .from(orders)
      .leftJoin(upstreamOrders, eq(upstreamOrders.orderId, orders.id))
      .where(and(eq(orders.orderNo, outTradeNo), eq(orders.channel, 'YHT')))
      .for('update', { of: orders })
      .limit(1);
    const result = await (async (): Promise<Decision> => {
      if (!row) return { verdict: 'unknown_order', detail: `no YHT order ${outTradeNo}` };
      const { order, upstream } = row;
      const amountMinor = parseMinorUnits(fields.amount!);
      if (amountMinor !== order.payAmountMinor) {
        return { orderId: order.id, verdict: 'amount_mismatch', detail: `callback amount ${fields.amount} differs from the order's` };
      }
      if (upstream && upstream.upstreamOrderNo !== fields.tradeNo) {
        return { orderId: order.id, verdict: 'trade_no_mismatch', detail: `callback tradeNo ${fields.tradeNo} is not the upstream order ${upstream.upstreamOrderNo}` };
      }
      if (fields.status !== 'SUCCESS') return { orderId: order.id, verdict: 'ignored', detail: `status ${fields.status}` };
      if (order.status === 'paid') return { orderId: order.id, verdict: 'duplicate', detail: `already paid via ${order.paidVia ?? 'unknown'}` };
      const paidAt = paymentTime(fields.payTime, now);
      const windowEnded = paidAt.getTime() > order.expiresAt.getTime() + CLOCK_TOLERANCE_MS || order.status === 'closed';
      if (windowEnded) {
        return { orderId: order.id, verdict: 'late_payment', detail: `paid at ${paidAt.toISOString()} after the window closed at ${order.expiresAt.toISOString()}; for the operator` };
      }
      const marked = await markOrderPaid(tx, { orderId: order.id, via: 'yht-callback', paidAt, tradeNo: fields.tradeNo });
      return marked.changed ? { orderId: order.id, verdict: 'paid' } : { orderId: order.id, verdict: 'duplicate' };
    })();
    await recordUpstreamCallback(tx, {
      channel: 'YHT',
      receivedAt: now,
      rawBody,
      outTradeNo,
      tradeNo: fields.tradeNo,
      orderId: result.orderId,
      verdict: result.verdict,
      detail: result.detail,
      answer: ACKNOWLEDGED.has(result.verdict) ? YHT_CALLBACK_ACK : YHT_CALLBACK_NACK,
    });
    return result;
  });
}

/**
 * An asynchronous YHT callback, verified on the raw form body: signature, merchant number, order, amount and the
 * upstream order number. Marks the order paid (once), records every callback with its verdict, and tells the
 * route what to answer: `success` for a genuine callback that is handled, `fail` for anything else.
 */
export async function receiveYhtCallback(db: Database, rawBody: string, now: Date, config: YhtConfig = yhtConfig()): Promise<CallbackOutcome> {
  const fields = parseForm(rawBody);
  let decision: Decision;
  if (!fields) {
    decision = { verdict: 'malformed', detail: 'not a form body, or a field given twice' };
  } else if (!verifyYhtSign(fields, config.key, fields.sign)) {
    decision = { verdict: 'bad_signature', detail: fields.sign ? 'signature does not match' : 'no sign field' };
  } else if (fields.mchNo !== config.merchantNo) {
    decision = { verdict: 'wrong_merchant', detail: `mchNo ${String(fields.mchNo).slice(0, 64)} is not ours` };
  } else if (!fields.outTradeNo || !fields.tradeNo || !fields.amount || !fields.status) {
    decision = { verdict: 'malformed', detail: 'outTradeNo, tradeNo, amount and status are required' };
  } else {
    const decided = await decide(db, fields, rawBody, now);
    return { answer: ACKNOWLEDGED.has(decided.verdict) ? YHT_CALLBACK_ACK : YHT_CALLBACK_NACK, verdict: decided.verdict, detail: decided.detail };
  }
  await recordUpstreamCallback(db, {
    channel: 'YHT',
    receivedAt: now,
    rawBody,
    outTradeNo: fields?.outTradeNo,
    tradeNo: fields?.tradeNo,
    verdict: decision.verdict,
    detail: decision.detail,
    answer: YHT_CALLBACK_NACK,
  });
  return { answer: YHT_CALLBACK_NACK, verdict: decision.verdict, detail: decision.detail };
}

let unconfiguredCallbackLogged = false;

/**
 * What /v1/api/callback/yht answers. A service where YHT is not configured (production without YHT_*) has no YHT
 * callback: 404, nothing recorded, whatever was sent; the first such callback is logged once for the operator (a
 * real YHT sending callbacks here means the settings are missing). Otherwise the callback is judged as above.
 */
export async function answerYhtCallback(db: Database, rawBody: string, now: Date): Promise<CallbackReply> {
  let config: YhtConfig;
  try {
    config = yhtConfig();
  } catch (error) {
    if (!(error instanceof YhtNotConfigured)) throw error;
    if (!unconfiguredCallbackLogged) log().warn({ component: 'yht' }, `yht: callback refused (404): the channel is not configured: ${error.message}`);
    unconfiguredCallbackLogged = true;
    return { status: 404, text: 'not found' };
  }
  return (await receiveYhtCallback(db, rawBody, now, config)).answer;
}
