import { DomainError } from '../../errors/domain-error';
import { randomBytes } from 'node:crypto';
import { formatMinorUnits, parseMinorUnits } from '../../money/decimal-amount';
import type { YhtConfig } from './config';
import { YHT_CREATE_PATH, YHT_OK, YHT_ORDER_NOT_EXIST, YHT_QUERY_PATH, type YhtPayMethod, type YhtTradeStatus } from './protocol';
import { signedYhtFields, verifyYhtSign } from './sign';
import { measureUpstreamCall } from '../../observability/metrics';

/** The upstream refused, answered something unusable, or could not be reached. `reason` is safe to show merchants. */
export class YhtUpstreamError extends DomainError {
  constructor(
    readonly reason: string,
    readonly unreachable = false,
  ) {
    super('upstream_failure', { message: reason });
    this.name = 'YhtUpstreamError';
  }
}

export interface YhtCreateInput {
  outTradeNo: string;
  amountMinor: bigint;
  payMethod: YhtPayMethod;
  subject: string;
  returnUrl?: string;
  expiresAt: Date;
}

export interface YhtCreated {
  tradeNo: string;
  cashierUrl: string;
  qrContent: string | undefined;
}

export type YhtQueryResult =
  | { found: false }
  | { found: true; tradeNo: string; status: YhtTradeStatus; amountMinor: bigint; payTime: Date | undefined };

const MAX_ANSWER_BYTES = 64 * 1024;

function nonce(): string {
  return randomBytes(16).toString('hex');
}

/** POSTs a signed form and returns the answer's flat text fields once its signature is checked, whatever its `code`. */
function call(config: YhtConfig, path: string, fields: Record<string, string | undefined>): Promise<Record<string, string>> {
  return measureUpstreamCall('YHT', path === YHT_CREATE_PATH ? 'create' : 'query', () => post(config, path, fields));
}

async function post(config: YhtConfig, path: string, fields: Record<string, string | undefined>): Promise<Record<string, string>> {
  const body = new URLSearchParams(signedYhtFields(fields, config.key)).toString();
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${config.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8', accept: 'application/json' },
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new YhtUpstreamError(timedOut ? 'YHT upstream did not answer in time' : 'YHT upstream is unreachable', true);
  }
  if (!response.ok) throw new YhtUpstreamError(`YHT upstream answered HTTP ${response.status}`, response.status >= 500);
  if (text.length > MAX_ANSWER_BYTES) throw new YhtUpstreamError('YHT upstream answer is too large');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new YhtUpstreamError('YHT upstream answer is not JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new YhtUpstreamError('YHT upstream answer is not an object');
  const answer: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value === 'string') answer[name] = value;
    else if (typeof value === 'number') answer[name] = String(value);
  }
  // Every answer is signed, refusals too: an unsigned "ORDER_NOT_EXIST" could otherwise close an order.
  if (!verifyYhtSign(answer, config.key, answer.sign)) {
    const code = answer.code === undefined ? '' : ` (code ${answer.code.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 40)})`;
    throw new YhtUpstreamError(`YHT upstream answer has no valid signature${code}`);
  }
  return answer;
}

function refusal(answer: Record<string, string>): YhtUpstreamError {
  const code = (answer.code ?? 'UNKNOWN').slice(0, 40);
  const message = (answer.msg ?? '').replace(/[^\x20-\x7e\u4e00-\u9fff]/g, '').slice(0, 120);
  return new YhtUpstreamError(`YHT upstream refused the order: ${code}${message ? ` ${message}` : ''}`);
}

/** Creates the upstream order (idempotent upstream by outTradeNo) and returns its cashier URL and QR content. */
export async function createYhtPayment(config: YhtConfig, input: YhtCreateInput): Promise<YhtCreated> {
  const answer = await call(config, YHT_CREATE_PATH, {
    mchNo: config.merchantNo,
    outTradeNo: input.outTradeNo,
    amount: formatMinorUnits(input.amountMinor),
    payMethod: input.payMethod,
    subject: input.subject,
    notifyUrl: config.notifyUrl,
    returnUrl: input.returnUrl,
    expireTime: String(Math.floor(input.expiresAt.getTime() / 1000)),
    nonceStr: nonce(),
  });
  if (answer.code !== YHT_OK) throw refusal(answer);
  if (answer.mchNo !== config.merchantNo || answer.outTradeNo !== input.outTradeNo) {
    throw new YhtUpstreamError('YHT upstream answered for another order');
  }
  if (parseMinorUnits(answer.amount ?? '') !== input.amountMinor) throw new YhtUpstreamError('YHT upstream answered another amount');
  if (!answer.tradeNo || !answer.cashierUrl || !/^https?:\/\//.test(answer.cashierUrl)) {
    throw new YhtUpstreamError('YHT upstream answer lacks tradeNo or cashierUrl');
  }
  return { tradeNo: answer.tradeNo, cashierUrl: answer.cashierUrl, qrContent: answer.qrContent || undefined };
}

/** A YHT time (Unix seconds as text), or undefined when unreadable. */
export function parseYhtTime(text: string | undefined): Date | undefined {
  if (!text || !/^\d{1,12}$/.test(text)) return undefined;
  return new Date(Number(text) * 1000);
}

/** Reads the upstream's state of one order. Amount and identity are checked by the caller against its order. */
export async function queryYhtPayment(config: YhtConfig, outTradeNo: string): Promise<YhtQueryResult> {
  const answer = await call(config, YHT_QUERY_PATH, { mchNo: config.merchantNo, outTradeNo, nonceStr: nonce() });
  if (answer.code === YHT_ORDER_NOT_EXIST) return { found: false };
  if (answer.code !== YHT_OK) throw refusal(answer);
  if (answer.mchNo !== config.merchantNo || answer.outTradeNo !== outTradeNo) throw new YhtUpstreamError('YHT upstream answered for another order');
  const status = answer.status;
  if (status !== 'WAITING' && status !== 'SUCCESS' && status !== 'CLOSED') throw new YhtUpstreamError(`YHT upstream answered unknown status ${String(status).slice(0, 20)}`);
  const amountMinor = parseMinorUnits(answer.amount ?? '');
  if (amountMinor === undefined) throw new YhtUpstreamError('YHT upstream answered an unreadable amount');
  return { found: true, tradeNo: answer.tradeNo ?? '', status, amountMinor, payTime: parseYhtTime(answer.payTime) };
}

