import { constants, privateDecrypt, randomInt } from 'node:crypto';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '@/lib/db/client';
import { sandboxWechatKeysOf } from '@/lib/channels/wechat/sandbox-keys';
import { authenticate, refuse, signedResponse } from './authenticated-request';
import { beijingTime, encryptResource, jsonObject, notificationId, parseJsonObject, platformSignatureHeaders } from './protocol';
import { sandboxWechatOrders, sandboxWechatRefunds, type SandboxWechatRefundRow } from './schema';
import { defaultSigner } from './signer';
import { findByOutTradeNo } from './store';

/**
 * WeChat Pay v3 refunds as documented: `POST /v3/refund/domestic/refunds` (out_refund_no of [0-9A-Za-z_-|*@] up to 64,
 * reason up to 80, amount.refund and amount.total in fen, total equal to the order's), the same out_refund_no
 * refunds once, at most 50 refunds per order, their sum within the order's total; `GET …/refunds/{out_refund_no}`;
 * the REFUND.SUCCESS / REFUND.ABNORMAL / REFUND.CLOSED notification to the refund's notify_url. An order's refund plan
 * (a sandbox control) keeps the next refund PROCESSING, turns it ABNORMAL, answers it too late once, or refuses every
 * new refund for want of balance (403 NOT_ENOUGH).
 * ABNORMAL ("退款异常，退款到银行发现用户的卡作废或者冻结了，导致原路退款银行卡失败") is not final: the money has
 * left the merchant's balance (it still counts against the order's total); `POST …/refunds/{refund_id}/
 * apply-abnormal-refund` (type USER_BANK_CARD with bank_type and the encrypted bank_account and real_name, or
 * MERCHANT_BANK_CARD) takes it up again (PROCESSING, then SUCCESS), and a refund handled in the merchant platform by
 * hand ends SUCCESS or CLOSED (refund-settle).
 */

const OUT_REFUND_NO = /^[0-9A-Za-z_\-|*@]{1,64}$/;
const MAX_REFUNDS = 50;

function slowAnswerMs(): number {
  const configured = Number(process.env.SANDBOX_SLOW_ANSWER_MS ?? 15_000);
  return Number.isFinite(configured) && configured >= 0 ? configured : 15_000;
}

/** The refund as the answer, the query and the notification's resource describe it. */
export function refundOf(refund: SandboxWechatRefundRow) {
  return {
    refund_id: refund.refundId,
    out_refund_no: refund.outRefundNo,
    transaction_id: refund.transactionId,
    out_trade_no: refund.outTradeNo,
    channel: 'ORIGINAL',
    user_received_account: '支付用户零钱',
    success_time: refund.successTime ? beijingTime(refund.successTime) : undefined,
    create_time: beijingTime(refund.createdAt),
    status: refund.status,
    amount: { total: Number(refund.totalMinor), refund: Number(refund.amountMinor), payer_total: Number(refund.totalMinor), payer_refund: Number(refund.amountMinor), currency: 'CNY' },
  };
}

/** Sends the refund's notification (REFUND.<status>) to its notify_url; the answer is not waited for by the caller. */
export async function sendRefundNotification(db: Database, refund: SandboxWechatRefundRow, now = new Date()): Promise<number | undefined> {
  if (!refund.notifyUrl) return undefined;
  const keys = await sandboxWechatKeysOf(db);
  const { refund_id, out_refund_no, transaction_id, out_trade_no, user_received_account, success_time, status, amount } = refundOf(refund);
  const resource = { mchid: refund.mchId, out_trade_no, transaction_id, out_refund_no, refund_id, refund_status: status, success_time, user_received_account, amount };
  const body = JSON.stringify({
    id: notificationId(),
    create_time: beijingTime(now),
    resource_type: 'encrypt-resource',
    event_type: `REFUND.${status}`,
    summary: '退款结果通知',
    resource: { ...encryptResource(JSON.stringify(resource), keys.apiV3Key, 'refund'), original_type: 'refund' },
  });
  try {
    const response = await fetch(refund.notifyUrl, {
      method: 'POST',
      headers: { ...platformSignatureHeaders(body, defaultSigner(keys), now), 'content-type': 'application/json' },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return undefined;
  }
}

/** What a refund in each state may become: PROCESSING ends in any way; ABNORMAL, handled by hand, in SUCCESS or CLOSED. */
const SETTLES_FROM: Record<'SUCCESS' | 'ABNORMAL' | 'CLOSED', string[]> = { SUCCESS: ['PROCESSING', 'ABNORMAL'], ABNORMAL: ['PROCESSING'], CLOSED: ['PROCESSING', 'ABNORMAL'] };

/** Sandbox control: an open refund becomes final or abnormal, and its notification is sent unless `notify` is false. */
export async function settleSandboxWechatRefund(db: Database, outRefundNo: string, status: 'SUCCESS' | 'ABNORMAL' | 'CLOSED', options: { notify?: boolean; now?: Date; successTime?: Date } = {}) {
  const now = options.now ?? new Date();
  const [settled] = await db
    .update(sandboxWechatRefunds)
    .set({ status, successTime: status === 'SUCCESS' ? (options.successTime ?? now) : null })
    .where(and(eq(sandboxWechatRefunds.outRefundNo, outRefundNo), inArray(sandboxWechatRefunds.status, SETTLES_FROM[status])))
    .returning();
  if (settled && options.notify !== false) await sendRefundNotification(db, settled, now);
  return settled;
}

export const WECHAT_REFUND_PLANS = {
  processing: 'the refund is accepted (PROCESSING) and stays so until refund-settle',
  abnormal: 'the refund is accepted, then turns ABNORMAL (REFUND.ABNORMAL notified): apply-abnormal-refund or refund-settle SUCCESS|CLOSED',
  timeout_once: "the refund is made, its answer comes after the caller's timeout (SANDBOX_SLOW_ANSWER_MS), once",
  not_enough: "every new refund of the order is refused, nothing made: 403 NOT_ENOUGH (the merchant's balance cannot pay it), until refund-plan none",
} as const;
export type WechatRefundPlan = keyof typeof WECHAT_REFUND_PLANS;

/** Sandbox control: what the order's next refund meets (null: SUCCESS at once). */
export async function planWechatRefund(db: Database, outTradeNo: string, plan: WechatRefundPlan | null) {
  const [order] = await db.update(sandboxWechatOrders).set({ refundPlan: plan }).where(eq(sandboxWechatOrders.outTradeNo, outTradeNo)).returning();
  return order;
}

/** The simulator's refund of that out_refund_no, if any. */
export async function sandboxWechatRefundNamed(db: Database, outRefundNo: string): Promise<SandboxWechatRefundRow | undefined> {
  const [refund] = await db.select().from(sandboxWechatRefunds).where(eq(sandboxWechatRefunds.outRefundNo, outRefundNo)).limit(1);
  return refund;
}

export async function sandboxWechatRefundsOf(db: Database, outTradeNo: string): Promise<SandboxWechatRefundRow[]> {
  return db.select().from(sandboxWechatRefunds).where(eq(sandboxWechatRefunds.outTradeNo, outTradeNo)).orderBy(sandboxWechatRefunds.id);
}

interface RefundInput {
  outTradeNo: string;
  outRefundNo: string;
  reason?: string;
  notifyUrl?: string;
  refund: bigint;
  total: bigint;
}

function readRefund(text: string): RefundInput | string {
  const body = parseJsonObject(text);
  if (!body) return 'body is not a JSON object';
  if (typeof body.out_trade_no !== 'string' || body.out_trade_no === '') return 'out_trade_no is required (the sandbox refunds by out_trade_no)';
  if (typeof body.out_refund_no !== 'string' || !OUT_REFUND_NO.test(body.out_refund_no)) return 'out_refund_no must be 1-64 of [0-9A-Za-z_-|*@]';
  if (body.reason !== undefined && (typeof body.reason !== 'string' || Array.from(body.reason).length > 80)) return 'reason must be at most 80 characters';
  if (body.notify_url !== undefined && (typeof body.notify_url !== 'string' || !/^https?:\/\/[^?]+$/.test(body.notify_url))) return 'notify_url must be an absolute http(s) URL without a query';
  const amount = jsonObject(body.amount);
  if (!amount || !Number.isSafeInteger(amount.refund) || (amount.refund as number) < 1) return 'amount.refund must be an integer number of fen, at least 1';
  if (!Number.isSafeInteger(amount.total) || (amount.total as number) < 1) return 'amount.total must be an integer number of fen, at least 1';
  if (amount.currency !== 'CNY') return 'amount.currency must be CNY';
  return { outTradeNo: body.out_trade_no, outRefundNo: body.out_refund_no, reason: body.reason as string | undefined, notifyUrl: body.notify_url as string | undefined, refund: BigInt(amount.refund as number), total: BigInt(amount.total as number) };
}

/** `POST /v3/refund/domestic/refunds`. */
export async function handleRefund(request: Request, db: Database, now: Date): Promise<Response> {
  const auth = await authenticate(request, db, now);
  if (auth instanceof Response) return auth;
  const { keys, signer } = auth;
  const input = readRefund(auth.body);
  if (typeof input === 'string') return refuse(signer, 400, 'PARAM_ERROR', input);
  const order = await findByOutTradeNo(db, keys.mchId, input.outTradeNo);
  if (!order) return refuse(signer, 404, 'RESOURCE_NOT_EXISTS', '订单不存在 (no such order)');
  if (order.tradeState !== 'SUCCESS') return refuse(signer, 400, 'INVALID_REQUEST', '订单状态错误: the order is not paid');
  if (input.total !== order.amountMinor) return refuse(signer, 400, 'INVALID_REQUEST', `amount.total ${input.total} is not the order's total ${order.amountMinor} (订单金额不一致)`);
  const outcome = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [locked] = await tx.select().from(sandboxWechatOrders).where(eq(sandboxWechatOrders.id, order.id)).for('update');
    const [existing] = await tx.select().from(sandboxWechatRefunds).where(and(eq(sandboxWechatRefunds.mchId, keys.mchId), eq(sandboxWechatRefunds.outRefundNo, input.outRefundNo)));
    if (existing) {
      if (existing.amountMinor !== input.refund || existing.outTradeNo !== input.outTradeNo) return { refusal: 'out_refund_no was already used with other parameters (请求参数不一致)' };
      return { refund: existing, slow: false };
    }
    // 申请退款's error codes: 403 NOT_ENOUGH 余额不足 ("此状态代表退款申请失败，商户可根据具体的错误提示进行处理"): the
    // merchant's available refund balance cannot pay it; nothing is made.
    if (locked!.refundPlan === 'not_enough') return { refusal: '余额不足: 商户可用退款余额不足', code: 'NOT_ENOUGH', status: 403 };
    const [{ value: made } = { value: 0 }] = await tx.select({ value: count() }).from(sandboxWechatRefunds).where(eq(sandboxWechatRefunds.outTradeNo, locked!.outTradeNo));
    if (made >= MAX_REFUNDS) return { refusal: `an order is refunded at most ${MAX_REFUNDS} times (退款次数超过限制)` };
    const [sum] = await tx
      // An ABNORMAL refund's money has left the balance: it counts until it is CLOSED.
      .select({ total: sql<string>`coalesce(sum(${sandboxWechatRefunds.amountMinor}) FILTER (WHERE ${sandboxWechatRefunds.status} IN ('SUCCESS', 'PROCESSING', 'ABNORMAL')), 0)::text` })
      .from(sandboxWechatRefunds)
      .where(eq(sandboxWechatRefunds.outTradeNo, locked!.outTradeNo));
    if (BigInt(sum?.total ?? '0') + input.refund > locked!.amountMinor) return { refusal: '申请退款金额超过订单可退金额 (the refunds would exceed the order total)', code: 'NOT_ENOUGH' };
    const plan = locked!.refundPlan;
    if (plan) await tx.update(sandboxWechatOrders).set({ refundPlan: plan === 'processing' ? plan : null }).where(eq(sandboxWechatOrders.id, locked!.id));
    const instant = plan === null || plan === 'timeout_once';
    const [created] = await tx
      .insert(sandboxWechatRefunds)
      .values({
        refundId: `50${String(randomInt(0, 1e9)).padStart(9, '0')}${String(randomInt(0, 1e9)).padStart(9, '0')}`,
        mchId: keys.mchId,
        outTradeNo: locked!.outTradeNo,
        transactionId: locked!.transactionId,
        outRefundNo: input.outRefundNo,
        amountMinor: input.refund,
        totalMinor: input.total,
        reason: input.reason ?? null,
        notifyUrl: input.notifyUrl ?? null,
        status: instant ? 'SUCCESS' : 'PROCESSING',
        createdAt: now,
        successTime: instant ? now : null,
      })
      .returning();
    return { refund: created!, slow: plan === 'timeout_once', abnormal: plan === 'abnormal' };
  });
  if ('refusal' in outcome) return refuse(signer, outcome.status ?? 400, outcome.code ?? 'INVALID_REQUEST', outcome.refusal!);
  // Sent after the answer, as WeChat Pay does; a send that can no longer happen (the store is gone: the service stopped)
  // is dropped, never an unhandled rejection.
  const dropped = () => undefined;
  if (outcome.abnormal) setTimeout(() => void settleSandboxWechatRefund(db, outcome.refund.outRefundNo, 'ABNORMAL').catch(dropped), 50);
  else if (outcome.refund.status === 'SUCCESS' && !outcome.slow) setTimeout(() => void sendRefundNotification(db, outcome.refund).catch(dropped), 50);
  if (outcome.slow) await new Promise((resolve) => setTimeout(resolve, slowAnswerMs()));
  return signedResponse(signer, 200, refundOf(outcome.refund), now);
}

/** `GET /v3/refund/domestic/refunds/{out_refund_no}`. */
export async function handleRefundQuery(request: Request, db: Database, outRefundNo: string, now: Date): Promise<Response> {
  const auth = await authenticate(request, db, now);
  if (auth instanceof Response) return auth;
  const [refund] = await db.select().from(sandboxWechatRefunds).where(and(eq(sandboxWechatRefunds.mchId, auth.keys.mchId), eq(sandboxWechatRefunds.outRefundNo, outRefundNo)));
  if (!refund) return refuse(auth.signer, 404, 'RESOURCE_NOT_EXISTS', '退款单不存在 (no such refund)');
  return signedResponse(auth.signer, 200, refundOf(refund), now);
}

const ABNORMAL_REMEDIES = ['USER_BANK_CARD', 'MERCHANT_BANK_CARD'] as const;

/** The platform private key of the serial the merchant encrypted with (Wechatpay-Serial). */
function decryptingKey(keys: Awaited<ReturnType<typeof sandboxWechatKeysOf>>, serial: string | null): string | undefined {
  if (!serial) return undefined;
  if (serial === keys.platformPublicKeyId) return keys.platformPrivateKey;
  return keys.platformCertificates.find((certificate) => certificate.serial === serial.toUpperCase().replace(/^0+(?=.)/, ''))?.privateKeyPem;
}

/** A sensitive field as WeChat requires it: RSAES-OAEP (SHA-1, MGF1) with the platform key, base64; undefined if it does not decrypt. */
function decryptField(value: unknown, privateKey: string | undefined): string | undefined {
  if (typeof value !== 'string' || value === '' || !privateKey) return undefined;
  try {
    return privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' }, Buffer.from(value, 'base64')).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * `POST /v3/refund/domestic/refunds/{refund_id}/apply-abnormal-refund`: only an ABNORMAL refund, named by its
 * refund_id and out_refund_no; type USER_BANK_CARD needs bank_type, bank_account and real_name encrypted with the
 * platform key named by Wechatpay-Serial; MERCHANT_BANK_CARD needs nothing more. The refund is PROCESSING again, and
 * SUCCESS (notified) shortly after.
 */
export async function handleApplyAbnormalRefund(request: Request, db: Database, refundId: string, now: Date): Promise<Response> {
  const auth = await authenticate(request, db, now);
  if (auth instanceof Response) return auth;
  const { keys, signer } = auth;
  const body = parseJsonObject(auth.body);
  if (!body) return refuse(signer, 400, 'PARAM_ERROR', 'body is not a JSON object');
  if (typeof body.out_refund_no !== 'string' || !OUT_REFUND_NO.test(body.out_refund_no)) return refuse(signer, 400, 'PARAM_ERROR', 'out_refund_no must be 1-64 of [0-9A-Za-z_-|*@]');
  if (!ABNORMAL_REMEDIES.includes(body.type as (typeof ABNORMAL_REMEDIES)[number])) return refuse(signer, 400, 'PARAM_ERROR', `type must be one of ${ABNORMAL_REMEDIES.join(', ')}`);
  if (body.type === 'USER_BANK_CARD') {
    if (typeof body.bank_type !== 'string' || body.bank_type === '') return refuse(signer, 400, 'PARAM_ERROR', 'bank_type is required for USER_BANK_CARD');
    const key = decryptingKey(keys, request.headers.get('wechatpay-serial'));
    if (!decryptField(body.bank_account, key)) return refuse(signer, 400, 'PARAM_ERROR', 'bank_account must be encrypted (RSAES-OAEP) with the platform key named by Wechatpay-Serial');
    if (!decryptField(body.real_name, key)) return refuse(signer, 400, 'PARAM_ERROR', 'real_name must be encrypted (RSAES-OAEP) with the platform key named by Wechatpay-Serial');
  }
  const [found] = await db.select().from(sandboxWechatRefunds).where(and(eq(sandboxWechatRefunds.mchId, keys.mchId), eq(sandboxWechatRefunds.refundId, refundId)));
  if (!found || found.outRefundNo !== body.out_refund_no) return refuse(signer, 404, 'RESOURCE_NOT_EXISTS', '退款单不存在 (no such refund)');
  const [taken] = await db
    .update(sandboxWechatRefunds)
    .set({ status: 'PROCESSING' })
    .where(and(eq(sandboxWechatRefunds.id, found.id), eq(sandboxWechatRefunds.status, 'ABNORMAL')))
    .returning();
  if (!taken) return refuse(signer, 400, 'INVALID_REQUEST', `退款状态不是退款异常: the refund is ${found.status}`);
  setTimeout(() => void settleSandboxWechatRefund(db, taken.outRefundNo, 'SUCCESS').catch(() => undefined), 50);
  return signedResponse(signer, 200, refundOf(taken), now);
}
