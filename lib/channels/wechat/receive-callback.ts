import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { orders } from '../../db/schema';
import { markOrderPaid } from '../../orders/order-status';
import { recordUpstreamCallback, type CallbackVerdict } from '../upstream-callbacks';
import { callbackCandidates, type CallbackCandidate } from './callback-credentials';
import { parseWechatTime, wechatTransactionSchema, type WechatTransaction } from './client';
import type { Decision } from './callback-decision';
import { decideForRefund } from './receive-refund-notice';
import { decryptResource, ResourceDecryptionFailed, signedMessage, verifyWechatSignature, type SignedMessage } from './signing';

/** What WeChat is answered: 204 (handled, stop sending) or a 4xx/5xx `{code: "FAIL", message}` (send again). */
export interface WechatCallbackOutcome {
  status: number;
  verdict: CallbackVerdict;
  detail?: string;
}

/** Clocks differ: a payment WeChat accepted (it enforces time_expire itself) up to this long after our window is in time. */
export const CLOCK_TOLERANCE_MS = 60_000;

const HANDLED: ReadonlySet<CallbackVerdict> = new Set(['paid', 'refund', 'duplicate', 'ignored', 'late_payment']);

function statusFor(verdict: CallbackVerdict): number {
  if (HANDLED.has(verdict)) return 204;
  if (verdict === 'bad_signature') return 401;
  if (verdict === 'unknown_order') return 404;
  return 400;
}

const notificationSchema = z.object({
  id: z.string().max(128),
  create_time: z.string().optional(),
  resource_type: z.literal('encrypt-resource'),
  event_type: z.string().max(64),
  summary: z.string().optional(),
  resource: z.object({
    original_type: z.string().optional(),
    algorithm: z.string(),
    ciphertext: z.string().max(32 * 1024),
    associated_data: z.string().max(256).optional(),
    nonce: z.string().min(1).max(64),
  }),
});

/** The order's side: found, bound to a credential that decrypted it, same account, same amount, then paid once. */
async function decideForOrder(db: Database, transaction: WechatTransaction, decrypting: CallbackCandidate[], rawBody: string, now: Date): Promise<Decision> {
  return db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    const [order] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.orderNo, transaction.out_trade_no), eq(orders.channel, 'WECHAT')))
      .for('update')
      .limit(1);
    const base = { outTradeNo: transaction.out_trade_no, tradeNo: transaction.transaction_id };
    const decision = await (async (): Promise<Decision> => {
      if (!order) return { ...base, verdict: 'unknown_order', detail: `no WECHAT order ${transaction.out_trade_no.slice(0, 64)}` };
      const bound = decrypting.find((candidate) => candidate.credentialId === order.credentialId);
      if (!bound) return { ...base, orderId: order.id, verdict: 'wrong_merchant', detail: `the order is bound to credential ${order.credentialId}, whose keys did not sign and encrypt this notification` };
      if ((transaction.appid !== undefined && transaction.appid !== bound.appId) || transaction.mchid !== bound.mchId) {
        return { ...base, orderId: order.id, verdict: 'wrong_merchant', detail: `appid/mchid ${String(transaction.appid).slice(0, 40)}/${transaction.mchid.slice(0, 40)} are not credential ${bound.credentialId}'s` };
      }
      const total = transaction.amount?.total;
      if (total === undefined || BigInt(total) !== order.payAmountMinor) {
        return { ...base, orderId: order.id, verdict: 'amount_mismatch', detail: `notification amount.total ${String(total)} fen differs from the order's ${order.payAmountMinor} fen` };
      }
      if (transaction.trade_state !== 'SUCCESS') return { ...base, orderId: order.id, verdict: 'ignored', detail: `trade_state ${transaction.trade_state}` };
      if (!transaction.transaction_id) return { ...base, orderId: order.id, verdict: 'malformed', detail: 'a SUCCESS transaction without transaction_id' };
      if (order.status === 'paid') {
        const same = order.tradeNo === transaction.transaction_id;
        return { ...base, orderId: order.id, verdict: 'duplicate', detail: same ? `already paid via ${order.paidVia ?? 'unknown'}` : `already paid with transaction ${order.tradeNo ?? '-'}` };
      }
      const stated = parseWechatTime(transaction.success_time);
      const paidAt = stated && stated.getTime() <= now.getTime() + 60_000 ? stated : now;
      if (order.status === 'closed' || paidAt.getTime() > order.expiresAt.getTime() + CLOCK_TOLERANCE_MS) {
        return { ...base, orderId: order.id, verdict: 'late_payment', detail: `paid at ${paidAt.toISOString()} after the window closed at ${order.expiresAt.toISOString()}; for the operator` };
      }
      const marked = await markOrderPaid(tx, { orderId: order.id, via: 'wechat-notify', paidAt, tradeNo: transaction.transaction_id });
      return marked.changed ? { ...base, orderId: order.id, verdict: 'paid' } : { ...base, orderId: order.id, verdict: 'duplicate' };
    })();
    await record(tx, decision, rawBody, now);
    return decision;
  });
}

async function record(db: Database, decision: Decision, rawBody: string, now: Date) {
  const status = statusFor(decision.verdict);
  await recordUpstreamCallback(db, {
    channel: 'WECHAT',
    receivedAt: now,
    rawBody,
    outTradeNo: decision.outTradeNo,
    tradeNo: decision.tradeNo,
    orderId: decision.orderId,
    verdict: decision.verdict,
    detail: decision.detail,
    answer: status === 204 ? 'HTTP 204' : `HTTP ${status} FAIL`,
  });
}

/** Signature (key chosen by Wechatpay-Serial), then decryption with each verifying credential's APIv3 key. */
async function authenticate(
  db: Database,
  message: SignedMessage,
  now: Date,
): Promise<{ decision: Decision } | { resource: unknown; decrypting: CallbackCandidate[]; eventType: string }> {
  const candidates = message.serial ? await callbackCandidates(db, message.serial) : [];
  const verifying = candidates.filter((candidate) => verifyWechatSignature(message, candidate.verifier, now).ok);
  if (verifying.length === 0) {
    // The reason of the first check that fails (missing headers, SIGNTEST, clock window, unknown serial, bad signature).
    const reason = verifyWechatSignature(message, candidates[0]?.verifier ?? { certificates: [] }, now);
    return { decision: { verdict: 'bad_signature', detail: reason.ok ? 'signature does not match' : reason.reason } };
  }
  let parsedJson: unknown;
  try {
    parsedJson = JSON.parse(message.body);
  } catch {
    return { decision: { verdict: 'malformed', detail: 'body is not JSON' } };
  }
  const notification = notificationSchema.safeParse(parsedJson);
  if (!notification.success) return { decision: { verdict: 'malformed', detail: `not a WeChat Pay notification: ${notification.error.issues[0]?.path.join('.') ?? ''}` } };
  const decrypting: CallbackCandidate[] = [];
  let plain: string | undefined;
  for (const candidate of verifying) {
    const key = candidate.apiV3Key();
    if (!key) continue;
    try {
      const text = decryptResource(notification.data.resource, key);
      plain ??= text;
      if (text === plain) decrypting.push(candidate);
    } catch (error) {
      if (!(error instanceof ResourceDecryptionFailed)) throw error;
    }
  }
  if (plain === undefined) return { decision: { verdict: 'malformed', detail: 'the resource does not decrypt under the APIv3 key of any credential whose key verified the signature' } };
  try {
    return { resource: JSON.parse(plain), decrypting, eventType: notification.data.event_type };
  } catch {
    return { decision: { verdict: 'malformed', detail: 'the decrypted resource is not JSON' } };
  }
}

/** A payment notification's resource: a transaction; TRANSACTION.SUCCESS pays the order. */
async function decideForTransaction(db: Database, resource: unknown, decrypting: CallbackCandidate[], eventType: string, rawBody: string, now: Date): Promise<Decision> {
  const transaction = wechatTransactionSchema.safeParse(resource);
  let decision: Decision;
  if (!transaction.success) decision = { verdict: 'malformed', detail: `the decrypted resource is not a transaction: ${transaction.error.issues[0]?.path.join('.') ?? ''}` };
  else if (eventType !== 'TRANSACTION.SUCCESS') decision = { verdict: 'ignored', detail: `event_type ${eventType}`, outTradeNo: transaction.data.out_trade_no };
  else return decideForOrder(db, transaction.data, decrypting, rawBody, now);
  await record(db, decision, rawBody, now);
  return decision;
}

/**
 * A WeChat Pay notification (POST JSON, signed in Wechatpay-* headers, resource encrypted under the APIv3 key).
 * Verified on the raw body; the order must be bound to the credential whose keys verified and decrypted it, with
 * the same appid, mchid and amount. TRANSACTION.SUCCESS pays the order once (via 'wechat-notify'); REFUND.SUCCESS,
 * REFUND.ABNORMAL and REFUND.CLOSED settle the refund they name (receive-refund-notice.ts). Every
 * notification is recorded with its verdict.
 */
export async function receiveWechatCallback(db: Database, rawBody: string, headers: Headers, now: Date): Promise<WechatCallbackOutcome> {
  const message = signedMessage(headers, rawBody);
  const authenticated = await authenticate(db, message, now);
  let decision: Decision;
  if ('decision' in authenticated) {
    decision = authenticated.decision;
    await record(db, decision, rawBody, now);
  } else if (authenticated.eventType.startsWith('REFUND.')) {
    decision = await decideForRefund(db, authenticated.resource, authenticated.decrypting, now);
    await record(db, decision, rawBody, now);
  } else {
    decision = await decideForTransaction(db, authenticated.resource, authenticated.decrypting, authenticated.eventType, rawBody, now);
  }
  return { status: statusFor(decision.verdict), verdict: decision.verdict, detail: decision.detail };
}

/** The JSON body of a refusal, as WeChat reads it. */
export function wechatCallbackReply(outcome: WechatCallbackOutcome): { status: number; json?: unknown } {
  if (outcome.status === 204) return { status: 204 };
  return { status: outcome.status, json: { code: 'FAIL', message: outcome.verdict === 'bad_signature' ? 'signature verification failed' : outcome.verdict.replace(/_/g, ' ') } };
}
