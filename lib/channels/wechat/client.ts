import { z } from 'zod';
import { DomainError } from '../../errors/domain-error';
import type { WechatAccount } from './account';
import type { WechatConfig } from './config';
import { authorizationHeader, signedMessage, verifyWechatSignature, type VerifyResult, type WechatVerifier } from './signing';
import { measureUpstreamCall, type UpstreamOutcome } from '../../observability/metrics';

/** The upstream refused, answered something unusable, or could not be reached. `reason` is safe to show merchants. */
export class WechatUpstreamError extends DomainError {
  constructor(
    readonly reason: string,
    readonly details: { status?: number; code?: string; unreachable?: boolean } = {},
  ) {
    super('upstream_failure', { message: reason });
    this.name = 'WechatUpstreamError';
  }
}

const MAX_ANSWER_BYTES = 64 * 1024;

interface WechatAnswer {
  status: number;
  json: unknown;
}

function clean(text: unknown, max: number): string {
  return String(text ?? '')
    .replace(/[^\x20-\x7e\u4e00-\u9fff]/g, '')
    .slice(0, max);
}

/**
 * One signed API v3 call, sending `Wechatpay-Serial` (the key we verify with). Every 2xx answer must carry WeChat's
 * valid signature, a body-less 204 too (as wechatpay-go checks every 2xx): an unsigned one is forged and changes
 * nothing. An answer signed by a platform certificate we do not know yet (a rotation) is checked again once the
 * certificates are downloaded anew. Anything else becomes a WechatUpstreamError naming WeChat's `code` and `message`.
 * `verifierFor` replaces the account's verifier for an answer that carries its own keys (the certificate list).
 */
export function callWechat(config: WechatConfig, account: WechatAccount, request: WechatRequest, now: () => Date = () => new Date()): Promise<WechatAnswer> {
  return measureUpstreamCall('WECHAT', request.operation, () => sendWechatRequest(config, account, request, now), wechatOutcome);
}

/** An error answer (4xx) is a refusal; no answer, or a 5xx, is WeChat unreachable. */
function wechatOutcome(error: unknown): UpstreamOutcome {
  return error instanceof WechatUpstreamError && error.details.unreachable ? 'unreachable' : 'refused';
}

interface WechatRequest {
  /** What the call does, for the metrics (create, query, close, certificates): never its path. */
  operation: string;
  method: 'GET' | 'POST';
  pathWithQuery: string;
  body?: Record<string, unknown>;
  verifierFor?: (json: unknown) => WechatVerifier;
  withoutAcceptSerial?: boolean;
}

async function sendWechatRequest(config: WechatConfig, account: WechatAccount, request: WechatRequest, now: () => Date): Promise<WechatAnswer> {
  const body = request.body === undefined ? '' : JSON.stringify(request.body);
  const authorization = authorizationHeader(
    { mchId: account.mchId, serialNo: account.merchantCertSerial, privateKey: account.privateKey },
    { method: request.method, pathWithQuery: request.pathWithQuery, body, timestamp: Math.floor(now().getTime() / 1000) },
  );
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${config.baseUrl}${request.pathWithQuery}`, {
      method: request.method,
      headers: {
        authorization,
        ...(request.withoutAcceptSerial ? {} : { 'wechatpay-serial': account.acceptSerial }),
        accept: 'application/json',
        'user-agent': 'payment-order-service (node)',
        ...(request.method === 'POST' ? { 'content-type': 'application/json' } : {}),
      },
      body: request.method === 'POST' ? body : undefined,
      redirect: 'error',
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new WechatUpstreamError(timedOut ? 'WeChat Pay did not answer in time' : 'WeChat Pay is unreachable', { unreachable: true });
  }
  if (text.length > MAX_ANSWER_BYTES) throw new WechatUpstreamError('WeChat Pay answer is too large', { status: response.status });
  let json: unknown;
  if (text !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  if (!response.ok) {
    const refusal = json && typeof json === 'object' ? (json as { code?: unknown; message?: unknown }) : {};
    const code = clean(refusal.code, 40) || `HTTP_${response.status}`;
    const message = clean(refusal.message, 160);
    throw new WechatUpstreamError(`WeChat Pay refused: ${code}${message ? ` ${message}` : ''}`, { status: response.status, code, unreachable: response.status >= 500 });
  }
  const verified = await verifyAnswer(account, signedMessage(response.headers, text), json, request.verifierFor, now);
  if (!verified.ok) throw new WechatUpstreamError(`WeChat Pay answer failed signature verification: ${verified.reason}`, { status: response.status });
  if (text !== '' && json === undefined) throw new WechatUpstreamError('WeChat Pay answer is not JSON', { status: response.status });
  return { status: response.status, json };
}

async function verifyAnswer(
  account: WechatAccount,
  message: ReturnType<typeof signedMessage>,
  json: unknown,
  verifierFor: ((json: unknown) => WechatVerifier) | undefined,
  now: () => Date,
): Promise<VerifyResult> {
  let verifier: WechatVerifier;
  try {
    verifier = verifierFor ? verifierFor(json) : account.verifier;
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : 'the answer carries no usable key' };
  }
  const verified = verifyWechatSignature(message, verifier, now());
  const unknownCertificate = !verified.ok && verified.unknownSerial === true && !message.serial?.startsWith('PUB_KEY_ID_');
  if (verified.ok || !unknownCertificate || verifierFor || !account.refreshVerifier) return verified;
  const refreshed = await account.refreshVerifier();
  return refreshed ? verifyWechatSignature(message, refreshed, now()) : verified;
}

export interface WechatPrepayInput {
  outTradeNo: string;
  description: string;
  amountMinor: bigint;
  /** RFC 3339 with +08:00. */
  timeExpire: string;
  notifyUrl: string;
  attach?: string;
}

/** Beijing time (UTC+08:00) in RFC 3339, as WeChat writes and expects `time_expire`. */
export function rfc3339Beijing(date: Date): string {
  const shifted = new Date(Math.floor(date.getTime() / 1000) * 1000 + 8 * 3600_000);
  return `${shifted.toISOString().slice(0, 19)}+08:00`;
}

function prepayBody(account: WechatAccount, input: WechatPrepayInput) {
  return {
    appid: account.appId,
    mchid: account.mchId,
    description: input.description,
    out_trade_no: input.outTradeNo,
    time_expire: input.timeExpire,
    attach: input.attach,
    notify_url: input.notifyUrl,
    amount: { total: Number(input.amountMinor), currency: 'CNY' },
  };
}

function shapeError(what: string): WechatUpstreamError {
  return new WechatUpstreamError(`WeChat Pay answer lacks ${what}`);
}

/** `POST /v3/pay/transactions/native` → the `code_url` the payer scans. */
export async function createNativePrepay(config: WechatConfig, account: WechatAccount, input: WechatPrepayInput): Promise<string> {
  const { json } = await callWechat(config, account, { operation: 'create', method: 'POST', pathWithQuery: '/v3/pay/transactions/native', body: prepayBody(account, input) });
  const parsed = z.object({ code_url: z.string().regex(/^weixin:\/\/\S+$/).max(512) }).safeParse(json);
  if (!parsed.success) throw shapeError('a weixin:// code_url');
  return parsed.data.code_url;
}

/** `POST /v3/pay/transactions/h5` → the `h5_url` the payer's mobile browser opens. */
export async function createH5Prepay(config: WechatConfig, account: WechatAccount, input: WechatPrepayInput & { payerClientIp: string }): Promise<string> {
  const body = { ...prepayBody(account, input), scene_info: { payer_client_ip: input.payerClientIp, h5_info: { type: 'Wap' } } };
  const { json } = await callWechat(config, account, { operation: 'create', method: 'POST', pathWithQuery: '/v3/pay/transactions/h5', body });
  const parsed = z.object({ h5_url: z.url({ protocol: /^https?$/ }).max(2048) }).safeParse(json);
  if (!parsed.success) throw shapeError('an http(s) h5_url');
  return parsed.data.h5_url;
}

export const WECHAT_TRADE_STATES = ['SUCCESS', 'REFUND', 'NOTPAY', 'CLOSED', 'REVOKED', 'USERPAYING', 'PAYERROR'] as const;
export type WechatTradeState = (typeof WECHAT_TRADE_STATES)[number];

/** A transaction as WeChat describes it (query answers and decrypted notifications). */
export const wechatTransactionSchema = z.object({
  /** Optional in the query answer (WeChat may leave it out); when present it must be the credential's. */
  appid: z.string().optional(),
  mchid: z.string(),
  out_trade_no: z.string(),
  transaction_id: z.string().optional(),
  trade_type: z.string().optional(),
  trade_state: z.enum(WECHAT_TRADE_STATES),
  trade_state_desc: z.string().optional(),
  success_time: z.string().optional(),
  attach: z.string().optional(),
  amount: z.object({ total: z.number().int().nonnegative().optional(), payer_total: z.number().int().optional(), currency: z.string().optional() }).optional(),
});

export type WechatTransaction = z.infer<typeof wechatTransactionSchema>;

export type WechatQueryResult = { found: false } | { found: true; transaction: WechatTransaction };

/** `GET /v3/pay/transactions/out-trade-no/{no}?mchid=…`: 404 ORDER_NOT_EXIST is `found: false`. */
export async function queryByOutTradeNo(config: WechatConfig, account: WechatAccount, outTradeNo: string): Promise<WechatQueryResult> {
  let answer: WechatAnswer;
  try {
    answer = await callWechat(config, account, {
      operation: 'query',
      method: 'GET',
      pathWithQuery: `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}?mchid=${encodeURIComponent(account.mchId)}`,
    });
  } catch (error) {
    if (error instanceof WechatUpstreamError && error.details.status === 404 && error.details.code === 'ORDER_NOT_EXIST') return { found: false };
    throw error;
  }
  const parsed = wechatTransactionSchema.safeParse(answer.json);
  if (!parsed.success) throw shapeError('a readable transaction');
  if (parsed.data.mchid !== account.mchId || parsed.data.out_trade_no !== outTradeNo) throw new WechatUpstreamError('WeChat Pay answered for another order');
  return { found: true, transaction: parsed.data };
}

/** `POST /v3/pay/transactions/out-trade-no/{no}/close` → 204. */
export async function closeByOutTradeNo(config: WechatConfig, account: WechatAccount, outTradeNo: string): Promise<void> {
  await callWechat(config, account, {
    operation: 'close',
    method: 'POST',
    pathWithQuery: `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}/close`,
    body: { mchid: account.mchId },
  });
}

/** WeChat times are RFC 3339 with an offset; undefined when unreadable. */
export function parseWechatTime(text: string | undefined): Date | undefined {
  if (!text || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(text)) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
