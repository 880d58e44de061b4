import { DomainError } from '../../errors/domain-error';
import { AlipaySdk } from 'alipay-sdk';
import type { UsableCredential } from '../../credentials/find-usable-credential';
import { formatMinorUnits, parseMinorUnits } from '../../money/decimal-amount';
import { formatBeijingTime, parseBeijingTime } from './beijing-time';
import type { AlipayConfig } from './config';
import { measureUpstreamCall, type UpstreamOutcome } from '../../observability/metrics';

/** Alipay refused, answered something unusable, or could not be reached. `reason` is safe to show merchants. */
export class AlipayUpstreamError extends DomainError {
  constructor(readonly reason: string) {
    super('upstream_failure', { message: reason });
    this.name = 'AlipayUpstreamError';
  }
}

export type AlipayPayMethod = 'web' | 'wap';

/** OpenAPI v2 methods and product codes of the two ways a payer pays in the browser. */
export const PAGE_PAY: Record<AlipayPayMethod, { method: string; productCode: string }> = {
  web: { method: 'alipay.trade.page.pay', productCode: 'FAST_INSTANT_TRADE_PAY' },
  wap: { method: 'alipay.trade.wap.pay', productCode: 'QUICK_WAP_WAY' },
};

/** The SDK with the merchant's own application keys (its bound credential) against the configured gateway. */
export function alipaySdkFor(config: AlipayConfig, credential: Pick<UsableCredential, 'upstreamAppId' | 'privateKey' | 'upstreamPublicKey'>): AlipaySdk {
  return new AlipaySdk({
    appId: credential.upstreamAppId,
    privateKey: credential.privateKey,
    alipayPublicKey: credential.upstreamPublicKey ?? undefined,
    // Stored private keys are normalised to PKCS#8 (lib/credentials/credential-fields.ts).
    keyType: 'PKCS8',
    gateway: config.gatewayUrl,
    timeout: config.timeoutMs,
  });
}

/** The SDK only to verify what Alipay signed (notifications): no gateway is contacted, so none needs configuring. */
export function alipayVerifierFor(credential: Pick<UsableCredential, 'upstreamAppId' | 'privateKey' | 'upstreamPublicKey'>): AlipaySdk {
  return new AlipaySdk({
    appId: credential.upstreamAppId,
    privateKey: credential.privateKey,
    alipayPublicKey: credential.upstreamPublicKey ?? undefined,
    keyType: 'PKCS8',
  });
}

export interface PagePayRequest {
  payMethod: AlipayPayMethod;
  outTradeNo: string;
  amountMinor: bigint;
  subject: string;
  body?: string;
  expiresAt: Date;
  /** Where the payer's browser goes back after paying (the service's checkout page). */
  returnUrl: string;
  /** When the request is signed: its `timestamp`, from which Alipay accepts it for 30 minutes. */
  signedAt?: Date;
}

/**
 * The common `timestamp` parameter in Beijing time. The SDK formats the host's local time, which on a host outside
 * GMT+8 puts the request hours in the past, and Alipay refuses it as expired; a `timestamp` given to the SDK wins.
 */
export function alipayTimestamp(at: Date = new Date()): { timestamp: string } {
  return { timestamp: formatBeijingTime(at) };
}

/**
 * The signed GET URL that opens Alipay's cashier for the order (alipay.trade.page.pay / alipay.trade.wap.pay):
 * the payer's browser is sent there; nothing is called server-side.
 */
export function pagePayUrl(config: AlipayConfig, credential: UsableCredential, request: PagePayRequest): string {
  const { method, productCode } = PAGE_PAY[request.payMethod];
  const bizContent: Record<string, string> = {
    out_trade_no: request.outTradeNo,
    total_amount: formatMinorUnits(request.amountMinor),
    subject: request.subject,
    product_code: productCode,
    time_expire: formatBeijingTime(request.expiresAt),
  };
  if (request.body) bizContent.body = request.body;
  if (request.payMethod === 'wap') bizContent.quit_url = request.returnUrl;
  return alipaySdkFor(config, credential).pageExecute(method, 'GET', {
    bizContent,
    notifyUrl: config.notifyUrl,
    returnUrl: request.returnUrl,
    ...alipayTimestamp(request.signedAt),
  });
}

export type AlipayTradeStatus = 'WAIT_BUYER_PAY' | 'TRADE_CLOSED' | 'TRADE_SUCCESS' | 'TRADE_FINISHED';

export type AlipayQueryResult =
  | { found: false }
  | { found: true; tradeNo: string; status: AlipayTradeStatus | string; amountMinor: bigint | undefined; payTime: Date | undefined };

/** What Alipay made of alipay.trade.close. */
export type AlipayCloseResult =
  /** The waiting trade is closed: nobody can pay it any more. */
  | 'closed'
  /** ACQ.TRADE_NOT_EXIST: the payer never opened the cashier, so there is nothing to pay. */
  | 'never_opened'
  /**
   * The trade is not waiting (paid, or closed already); ask alipay.trade.query which. alipay.trade.close's error codes
   * (https://opendocs.alipay.com/open/02e7gm) say so three ways: ACQ.TRADE_STATUS_ERROR (交易状态不合法),
   * ACQ.REASON_ILLEGAL_STATUS and ACQ.REASON_TRADE_STATUS_INVALID (交易状态异常: 非待支付状态下不支持关单操作).
   */
  | 'not_waiting';

/** The signed answer of a server call (`exec` with the answer's RSA2 signature checked), or AlipayUpstreamError. */
export async function signedCall(config: AlipayConfig, credential: UsableCredential, method: string, bizContent: Record<string, string | string[]>): Promise<Record<string, unknown>> {
  if (!credential.upstreamPublicKey) throw new AlipayUpstreamError('the credential has no Alipay public key to verify the answer');
  try {
    const operation = method.replace(/^alipay\.trade\./, '');
    return await measureUpstreamCall('ALIPAY', operation, () => alipaySdkFor(config, credential).exec(method, { bizContent, ...alipayTimestamp() }, { validateSign: true }), alipayOutcome);
  } catch (error) {
    throw new AlipayUpstreamError(`${method} failed: ${error instanceof Error ? error.message.slice(0, 300) : String(error)}`);
  }
}

/**
 * How a call that threw ended: alipay-sdk wraps a request that got no answer (a timeout, a refused or reset
 * connection) as "HttpClient Request error: …" with the transport's error as its cause, and a gateway's 5xx as
 * "HTTP 请求错误, status: 5xx": Alipay did not answer, so what it did is unknown (unreachable), never a refusal. An
 * answer that does not verify, or an error page of another status, is one.
 */
function alipayOutcome(error: unknown): UpstreamOutcome {
  const message = error instanceof Error ? error.message : '';
  return message.startsWith('HttpClient Request error') || /status: 5\d\d\b/.test(message) ? 'unreachable' : 'refused';
}

function refused(method: string, answer: Record<string, unknown>): AlipayUpstreamError {
  return new AlipayUpstreamError(`${method} answered ${String(answer.code)} ${String(answer.subCode ?? answer.msg ?? '')}`.trim());
}

const NOT_WAITING: ReadonlySet<string> = new Set(['ACQ.TRADE_STATUS_ERROR', 'ACQ.REASON_ILLEGAL_STATUS', 'ACQ.REASON_TRADE_STATUS_INVALID']);

/**
 * alipay.trade.close by out_trade_no, the answer verified: page pay may not honour time_expire, so a trade nobody
 * paid is closed at Alipay when the order's window ends, and only then here.
 */
export async function closeAlipayTrade(config: AlipayConfig, credential: UsableCredential, outTradeNo: string): Promise<AlipayCloseResult> {
  const answer = await signedCall(config, credential, 'alipay.trade.close', { out_trade_no: outTradeNo });
  if (answer.code === '10000') {
    if (answer.outTradeNo !== undefined && answer.outTradeNo !== outTradeNo) throw new AlipayUpstreamError('alipay.trade.close answered for another trade');
    return 'closed';
  }
  if (answer.subCode === 'ACQ.TRADE_NOT_EXIST') return 'never_opened';
  if (typeof answer.subCode === 'string' && NOT_WAITING.has(answer.subCode)) return 'not_waiting';
  throw refused('alipay.trade.close', answer);
}

/**
 * alipay.trade.query by out_trade_no, the answer's RSA2 signature checked with the credential's Alipay public key
 * (the SDK's validateSign). ACQ.TRADE_NOT_EXIST (the payer never opened the cashier) is `found: false`.
 */
export async function queryAlipayTrade(config: AlipayConfig, credential: UsableCredential, outTradeNo: string): Promise<AlipayQueryResult> {
  const answer = await signedCall(config, credential, 'alipay.trade.query', { out_trade_no: outTradeNo });
  if (answer.code !== '10000') {
    if (answer.subCode === 'ACQ.TRADE_NOT_EXIST') return { found: false };
    throw refused('alipay.trade.query', answer);
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const amount = text(answer.totalAmount);
  return {
    found: true,
    tradeNo: text(answer.tradeNo) ?? '',
    status: text(answer.tradeStatus) ?? '',
    amountMinor: amount === undefined ? undefined : parseMinorUnits(amount),
    payTime: parseBeijingTime(text(answer.sendPayDate)),
  };
}
