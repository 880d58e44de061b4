import type { Database } from '@/lib/db/client';
import { areaTranslator } from '@/lib/i18n/area-translator';
import { LOCALE_COOKIE, pickLocale } from '@/lib/i18n/locales';
import { alipaySandboxKeys, type AlipaySandboxKeys } from '@/lib/channels/alipay/sandbox-keys';
import { beijingTime, formatYuan, newTradeNo, PAGE_METHODS, parseBeijing, parseTotalAmount, REQUEST_UNSIGNED, rsa2Sign, rsa2Verify, signedText } from './protocol';
import { billDownloadUrlQuery } from './bill';
import { addressedOrigin } from '../addressed-origin';
import { closeIfExpired, closeWaiting, findTrade, insertTrade, type SandboxTrade } from './store';
import { notWaitingAnswer } from './close-plan';
import { queryRefund, refundTrade } from './refund';

/** A refusal as Alipay words it: a sub_code and a message (shown on the error page, or in the JSON answer). */
export class GatewayRefusal extends Error {
  constructor(
    readonly subCode: string,
    readonly subMsg: string,
    readonly code = '40002',
  ) {
    super(`${subCode}: ${subMsg}`);
    this.name = 'GatewayRefusal';
  }
}

/**
 * Alipay reads `timestamp` as Beijing time (GMT+8) and lets a request live 30 minutes from it. A timestamp as far
 * ahead is refused too: it comes from a clock in another zone just the same.
 */
export const REQUEST_LIFETIME_MS = 30 * 60_000;

function checkTimestamp(timestamp: string | undefined, now: Date): void {
  if (!timestamp) throw new GatewayRefusal('isv.missing-timestamp', '缺少时间戳参数 (timestamp is missing)', '40001');
  const at = parseBeijing(timestamp);
  if (!at) throw new GatewayRefusal('isv.invalid-timestamp', `非法的时间戳参数: timestamp ${timestamp} is not yyyy-MM-dd HH:mm:ss`);
  if (Math.abs(now.getTime() - at.getTime()) > REQUEST_LIFETIME_MS) {
    throw new GatewayRefusal(
      'isv.invalid-timestamp',
      `非法的时间戳参数: timestamp ${timestamp} is more than 30 minutes from the gateway's Beijing time ${beijingTime(now)} (GMT+8; the request has expired)`,
    );
  }
}

/** The parameters of a gateway call: the URL's query plus, for POST, the form body. A name given twice is refused. */
export async function gatewayParams(request: Request): Promise<Record<string, string>> {
  const params: Record<string, string> = Object.create(null);
  const add = (entries: URLSearchParams) => {
    for (const [name, value] of entries) {
      if (name in params) throw new GatewayRefusal('isv.invalid-parameter', `parameter ${name} is given more than once`);
      params[name] = value;
    }
  };
  add(new URL(request.url).searchParams);
  if (request.method === 'POST') add(new URLSearchParams(await request.text()));
  return params;
}

/**
 * Checks the common parameters and the RSA2 signature exactly as the gateway does: the app must be the sandbox
 * application, and `sign` must verify over every other parameter with its application public key.
 */
export function verifyRequest(params: Record<string, string>, keys: AlipaySandboxKeys, now: Date): void {
  if (!params.app_id) throw new GatewayRefusal('isv.missing-app-id', 'app_id is missing');
  if (params.app_id !== keys.appId) throw new GatewayRefusal('isv.invalid-app-id', `app_id ${params.app_id} is not an application of this sandbox (${keys.appId})`);
  if (!params.method) throw new GatewayRefusal('isv.missing-method', 'method is missing');
  if (params.sign_type !== 'RSA2') throw new GatewayRefusal('isv.invalid-signature-type', 'sign_type must be RSA2');
  checkTimestamp(params.timestamp, now);
  if (params.charset && params.charset.toLowerCase() !== 'utf-8') throw new GatewayRefusal('isv.invalid-charset', 'charset must be utf-8');
  if (!params.sign) throw new GatewayRefusal('isv.missing-signature', 'sign is missing');
  const text = signedText(params, REQUEST_UNSIGNED);
  if (!rsa2Verify(text, params.sign, keys.appPublicKey)) {
    throw new GatewayRefusal('isv.invalid-signature', `the signature does not verify with the application public key; signed text: ${text.slice(0, 300)}`);
  }
}

function bizContent(params: Record<string, string>): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(params.biz_content ?? '');
  } catch {
    throw new GatewayRefusal('isv.invalid-parameter', 'biz_content is missing or not JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new GatewayRefusal('isv.invalid-parameter', 'biz_content must be a JSON object');
  return parsed as Record<string, unknown>;
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * alipay.trade.page.pay / alipay.trade.wap.pay arriving in the payer's browser: verified, then the trade is recorded
 * (the first visit creates it; a later visit with the same content finds it) and the payer sees the cashier.
 */
export async function acceptPagePay(db: Database, params: Record<string, string>, keys: AlipaySandboxKeys, now: Date): Promise<SandboxTrade> {
  const productCode = PAGE_METHODS[params.method!]!;
  const biz = bizContent(params);
  const outTradeNo = text(biz.out_trade_no);
  if (!outTradeNo || !/^[A-Za-z0-9_-]{1,64}$/.test(outTradeNo)) throw new GatewayRefusal('isv.invalid-parameter', 'out_trade_no must be 1 to 64 letters, digits, _ or -');
  const amountMinor = parseTotalAmount(biz.total_amount);
  if (amountMinor === undefined) throw new GatewayRefusal('isv.invalid-parameter', 'total_amount must be 0.01 to 100000000 with at most 2 decimals');
  const subject = text(biz.subject);
  if (!subject || subject.length > 256) throw new GatewayRefusal('isv.invalid-parameter', 'subject is required (at most 256 characters)');
  if (biz.product_code !== productCode) throw new GatewayRefusal('isv.invalid-parameter', `product_code must be ${productCode} for ${params.method}`);
  const timeExpire = biz.time_expire === undefined ? new Date(now.getTime() + 2 * 3600_000) : parseBeijing(biz.time_expire);
  if (!timeExpire) throw new GatewayRefusal('isv.invalid-parameter', 'time_expire must be yyyy-MM-dd HH:mm:ss');

  const existing = await findTrade(db, keys.appId, { outTradeNo });
  if (existing) {
    if (existing.amountMinor !== amountMinor || existing.subject !== subject) {
      throw new GatewayRefusal('ACQ.CONTEXT_INCONSISTENT', `trade ${outTradeNo} exists with other content (amount ${formatYuan(existing.amountMinor)})`, '40004');
    }
    return closeIfExpired(db, existing, now);
  }
  if (timeExpire.getTime() <= now.getTime()) throw new GatewayRefusal('ACQ.TRADE_HAS_CLOSE', `time_expire ${String(biz.time_expire)} has passed`, '40004');
  return insertTrade(db, {
    tradeNo: newTradeNo(now),
    appId: keys.appId,
    outTradeNo,
    method: params.method!,
    amountMinor,
    subject,
    body: text(biz.body),
    passbackParams: text(biz.passback_params),
    notifyUrl: params.notify_url || null,
    returnUrl: params.return_url || null,
    timeExpire,
    createdAt: now,
  });
}

/** A JSON answer of the gateway: `{"<method>_response":{…},"sign":"…"}`, signed over the inner object's text as sent. */
export function signedAnswer(method: string, inner: Record<string, unknown>, keys: AlipaySandboxKeys): Response {
  const innerText = JSON.stringify(inner);
  const key = `${method.replaceAll('.', '_')}_response`;
  const body = `{"${key}":${innerText},"sign":"${rsa2Sign(innerText, keys.alipayPrivateKey)}"}`;
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json;charset=utf-8' } });
}

/** alipay.trade.query: the trade as Alipay reports it, or 40004 ACQ.TRADE_NOT_EXIST. */
export async function queryTrade(db: Database, params: Record<string, string>, keys: AlipaySandboxKeys, now: Date): Promise<Record<string, unknown>> {
  const found = await namedTrade(db, params, keys);
  if (!found) return TRADE_NOT_EXIST;
  const trade = await closeIfExpired(db, found, now);
  const paid = trade.status === 'TRADE_SUCCESS';
  const amount = formatYuan(trade.amountMinor);
  return {
    code: '10000',
    msg: 'Success',
    trade_no: trade.tradeNo,
    out_trade_no: trade.outTradeNo,
    buyer_logon_id: trade.buyerLogonId ?? '',
    trade_status: trade.status,
    total_amount: amount,
    buyer_pay_amount: paid ? amount : '0.00',
    point_amount: '0.00',
    invoice_amount: paid ? amount : '0.00',
    receipt_amount: paid ? amount : '0.00',
    ...(paid && trade.paidAt ? { send_pay_date: beijingTime(trade.paidAt) } : {}),
  };
}

/** The trade a server call names: `trade_no` wins over `out_trade_no` when both are given. */
async function namedTrade(db: Database, params: Record<string, string>, keys: AlipaySandboxKeys): Promise<SandboxTrade | undefined> {
  const biz = bizContent(params);
  const outTradeNo = text(biz.out_trade_no);
  const tradeNo = text(biz.trade_no);
  if (!outTradeNo && !tradeNo) throw new GatewayRefusal('ACQ.INVALID_PARAMETER', '参数无效: out_trade_no or trade_no is required', '40004');
  return tradeNo ? findTrade(db, keys.appId, { tradeNo }) : findTrade(db, keys.appId, { outTradeNo });
}

const TRADE_NOT_EXIST = { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_NOT_EXIST', sub_msg: '交易不存在' };

/**
 * alipay.trade.close: only a trade waiting for the buyer can be closed (then nobody can pay it);
 * 40004 ACQ.TRADE_NOT_EXIST when the payer never opened it; any other trade is refused with one of the codes Alipay
 * documents for a trade that is not waiting (notWaitingAnswer: by default ACQ.REASON_TRADE_STATUS_INVALID for a paid
 * one, ACQ.TRADE_STATUS_ERROR for a closed one; ACQ.REASON_ILLEGAL_STATUS under the trade's close plan).
 */
export async function closeTrade(db: Database, params: Record<string, string>, keys: AlipaySandboxKeys, now: Date): Promise<Record<string, unknown>> {
  const found = await namedTrade(db, params, keys);
  if (!found) return TRADE_NOT_EXIST;
  const current = await closeIfExpired(db, found, now);
  // Closed by this call only if still waiting (a payment may have won the race).
  const closed = current.status === 'WAIT_BUYER_PAY' ? await closeWaiting(db, current) : undefined;
  if (closed?.status !== 'TRADE_CLOSED') return notWaitingAnswer(closed ?? current);
  return { code: '10000', msg: 'Success', trade_no: closed.tradeNo, out_trade_no: closed.outTradeNo };
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** What the payer's browser sees when the request is refused: a visible error page, as Alipay shows one, in the payer's language. */
export async function errorPage(refusal: GatewayRefusal, request: Request): Promise<Response> {
  const locale = pickLocale({ cookie: cookieValue(request.headers.get('cookie'), LOCALE_COOKIE), acceptLanguage: request.headers.get('accept-language') });
  const t = await areaTranslator(locale, 'sandbox');
  const html = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(t('alipay.gatewayError.title'))}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem">
<p style="color:#b45309">${escapeHtml(t('badge'))}</p>
<h1>${escapeHtml(t('alipay.gatewayError.heading'))}</h1>
<p role="alert" data-testid="gateway-error"><strong>${escapeHtml(refusal.subCode)}</strong>: ${escapeHtml(refusal.subMsg)}</p>
<p>${escapeHtml(t('alipay.gatewayError.again'))}</p>
</body></html>`;
  return new Response(html, { status: 400, headers: { 'content-type': 'text/html; charset=utf-8' } });
}

function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

const BILL_QUERY = 'alipay.data.dataservice.bill.downloadurl.query';

const SERVER_METHODS: Readonly<Record<string, typeof queryTrade>> = {
  'alipay.trade.query': queryTrade,
  'alipay.trade.close': closeTrade,
  'alipay.trade.refund': (db, params, keys) => refundTrade(db, bizContent(params), keys),
  'alipay.trade.fastpay.refund.query': (db, params, keys) => queryRefund(db, bizContent(params), keys),
};

/**
 * `/sandbox/alipay/gateway.do`: page/wap pay arriving in the payer's browser (GET, or the SDK's auto-submitted POST
 * form) leads to the cashier; a server call (POST: alipay.trade.query, close, refund, fastpay.refund.query,
 * alipay.data.dataservice.bill.downloadurl.query) gets the signed JSON answer.
 */
export async function handleGateway(request: Request, db: Database, now = new Date()): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'POST') return new Response('method not allowed', { status: 405, headers: { allow: 'GET, POST' } });
  const keys = await alipaySandboxKeys(db);
  let params: Record<string, string> = {};
  try {
    params = await gatewayParams(request);
  } catch (error) {
    if (error instanceof GatewayRefusal) return errorPage(error, request);
    throw error;
  }
  const method = params.method ?? '';
  if (method in PAGE_METHODS || request.method === 'GET') {
    try {
      verifyRequest(params, keys, now);
      if (!(method in PAGE_METHODS)) throw new GatewayRefusal('isv.invalid-method', `${method} is not a page method`);
      const trade = await acceptPagePay(db, params, keys, now);
      return new Response(null, { status: 303, headers: { location: `cashier/${encodeURIComponent(trade.tradeNo)}` } });
    } catch (error) {
      if (error instanceof GatewayRefusal) return errorPage(error, request);
      throw error;
    }
  }
  try {
    verifyRequest(params, keys, now);
    if (method === BILL_QUERY) {
      const billUrlBase = new URL(`${new URL('bill/download', request.url).pathname}`, addressedOrigin(request)).toString();
      return signedAnswer(method, billDownloadUrlQuery(bizContent(params), keys, now, billUrlBase), keys);
    }
    const serve = SERVER_METHODS[method];
    if (!serve) throw new GatewayRefusal('isv.invalid-method', `method ${method} is not offered by the sandbox`);
    return signedAnswer(method, await serve(db, params, keys, now), keys);
  } catch (error) {
    if (!(error instanceof GatewayRefusal)) throw error;
    const msg = error.code === '40004' ? 'Business Failed' : error.code === '40001' ? 'Missing Required Arguments' : 'Invalid Arguments';
    return signedAnswer(method || 'error', { code: error.code, msg, sub_code: error.subCode, sub_msg: error.subMsg }, keys);
  }
}
