import type { Database } from '@/lib/db/client';
import type { SandboxWechatKeysRow } from '@/lib/channels/wechat/schema';
import { publicBaseUrl } from '@/lib/orders/identifiers';
import { authenticate, refuse, signedResponse } from './authenticated-request';
import { beijingTime, encryptResource, jsonObject, newPayId, newPrepayId, newTransactionId, OUT_TRADE_NO, parseJsonObject, RFC3339 } from './protocol';
import { randomInt } from 'node:crypto';
import { isIP } from 'node:net';
import { billDownload, tradeBill } from './bill';
import { addressedOrigin } from '../addressed-origin';
import { closeIfExpired, closeOrder, findByOutTradeNo, insertOrder, recordH5Url, type SandboxWechatOrder } from './store';
import { handleApplyAbnormalRefund, handleRefund, handleRefundQuery } from './refund';

/**
 * The simulated WeChat Pay API v3 under `/sandbox/wechat/v3/…`: native and h5 prepay, query by out_trade_no, close,
 * the platform certificate list. Requests must carry a valid merchant Authorization header (else 401 SIGN_ERROR)
 * and the `Wechatpay-Serial` the merchant's mode asks for (signer.ts; else 400 INVALID_REQUEST); bodies are
 * validated (400 PARAM_ERROR naming the field); every answer is signed (Wechatpay-* headers) with the key chosen.
 */

export function payerPageUrl(payId: string): string {
  return `${publicBaseUrl()}/sandbox/wechat/pay/${payId}`;
}

export function codeUrlOf(order: SandboxWechatOrder): string {
  return `weixin://wxpay/bizpayurl?pr=${order.payId}`;
}

/** One h5_url of an MWEB order: `package` names this issue of the link (each lives 5 minutes, see h5-visit.ts). */
export function h5UrlOf(order: SandboxWechatOrder, pkg: string): string {
  return `${payerPageUrl(order.payId)}?prepay_id=${order.prepayId}&package=${pkg}`;
}


function isHttpUrl(text: unknown): boolean {
  try {
    return typeof text === 'string' && ['http:', 'https:'].includes(new URL(text).protocol) && !text.includes('?');
  } catch {
    return false;
  }
}

interface Prepay {
  appid: string;
  mchid: string;
  description: string;
  out_trade_no: string;
  time_expire: Date;
  /** Whether the body carried time_expire (else the 2 h default, which a repeat cannot be compared on). */
  timeExpireSent: boolean;
  notify_url: string;
  attach?: string;
  total: bigint;
  payerClientIp?: string;
}

/** Validates a prepay body; the refusal names the field. */
function readPrepay(keys: SandboxWechatKeysRow, text: string, h5: boolean, now: Date): Prepay | { field: string; problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { field: 'body', problem: 'is not JSON' };
  }
  const body = jsonObject(parsed);
  if (!body) return { field: 'body', problem: 'is not a JSON object' };
  if (body.appid !== keys.appId) return { field: 'appid', problem: `must be the sandbox appid ${keys.appId}` };
  if (body.mchid !== keys.mchId) return { field: 'mchid', problem: 'must be the mchid of the Authorization header' };
  if (typeof body.description !== 'string' || body.description === '' || Array.from(body.description).length > 127) return { field: 'description', problem: 'is required, at most 127 characters' };
  if (typeof body.out_trade_no !== 'string' || !OUT_TRADE_NO.test(body.out_trade_no)) return { field: 'out_trade_no', problem: 'must be 6-32 of [0-9A-Za-z_-|*]' };
  if (!isHttpUrl(body.notify_url)) return { field: 'notify_url', problem: 'must be an absolute http(s) URL without a query' };
  if (body.attach !== undefined && (typeof body.attach !== 'string' || body.attach.length > 128)) return { field: 'attach', problem: 'must be a string of at most 128 characters' };
  let expire = new Date(now.getTime() + 2 * 3600_000);
  if (body.time_expire !== undefined) {
    if (typeof body.time_expire !== 'string' || !RFC3339.test(body.time_expire)) return { field: 'time_expire', problem: 'must be RFC 3339 with an offset (yyyy-MM-DDTHH:mm:ss+08:00)' };
    expire = new Date(body.time_expire);
    if (expire.getTime() <= now.getTime()) return { field: 'time_expire', problem: 'is in the past' };
  }
  const amount = jsonObject(body.amount);
  if (!amount || !Number.isSafeInteger(amount.total) || (amount.total as number) < 1) return { field: 'amount.total', problem: 'must be an integer number of fen, at least 1' };
  if (amount.currency !== undefined && amount.currency !== 'CNY') return { field: 'amount.currency', problem: 'must be CNY' };
  let payerClientIp: string | undefined;
  if (h5) {
    const scene = jsonObject(body.scene_info);
    if (!scene || typeof scene.payer_client_ip !== 'string' || scene.payer_client_ip === '') return { field: 'scene_info.payer_client_ip', problem: 'is required' };
    if (scene.payer_client_ip.length > 45 || isIP(scene.payer_client_ip) === 0) return { field: 'scene_info.payer_client_ip', problem: 'must be an IPv4 or IPv6 address' };
    const info = jsonObject(scene.h5_info);
    if (!info || !['Wap', 'iOS', 'Android'].includes(info.type as string)) return { field: 'scene_info.h5_info.type', problem: 'must be Wap, iOS or Android' };
    payerClientIp = scene.payer_client_ip;
  }
  return {
    appid: body.appid,
    mchid: body.mchid,
    description: body.description,
    out_trade_no: body.out_trade_no,
    time_expire: expire,
    timeExpireSent: body.time_expire !== undefined,
    notify_url: body.notify_url as string,
    attach: body.attach as string | undefined,
    total: BigInt(amount.total as number),
    payerClientIp,
  };
}

/** WeChat answers a repeated out_trade_no only when every parameter is the first call's. */
function sameParameters(order: SandboxWechatOrder, input: Prepay, tradeType: string): boolean {
  return (
    order.amountMinor === input.total &&
    order.tradeType === tradeType &&
    order.appId === input.appid &&
    order.description === input.description &&
    order.notifyUrl === input.notify_url &&
    (order.attach ?? '') === (input.attach ?? '') &&
    (order.payerClientIp ?? null) === (input.payerClientIp ?? null) &&
    (!input.timeExpireSent || order.timeExpire.getTime() === input.time_expire.getTime())
  );
}

async function handlePrepay(request: Request, db: Database, h5: boolean, now: Date): Promise<Response> {
  const auth = await authenticate(request, db, now);
  if (auth instanceof Response) return auth;
  const { keys, signer } = auth;
  const input = readPrepay(keys, auth.body, h5, now);
  if ('field' in input) return refuse(signer, 400, 'PARAM_ERROR', `${input.field} ${input.problem}`);
  const tradeType = h5 ? 'MWEB' : 'NATIVE';
  const existing = await findByOutTradeNo(db, input.mchid, input.out_trade_no);
  const order =
    existing ??
    (await insertOrder(db, {
      payId: newPayId(),
      transactionId: newTransactionId(now),
      prepayId: newPrepayId(now),
      mchId: input.mchid,
      appId: input.appid,
      outTradeNo: input.out_trade_no,
      tradeType,
      description: input.description,
      amountMinor: input.total,
      notifyUrl: input.notify_url,
      attach: input.attach ?? null,
      payerClientIp: input.payerClientIp ?? null,
      timeExpire: input.time_expire,
      createdAt: now,
    })) ??
    (await findByOutTradeNo(db, input.mchid, input.out_trade_no))!;
  if (!sameParameters(order, input, tradeType)) return refuse(signer, 400, 'INVALID_REQUEST', 'out_trade_no was already used with other parameters (201 商户订单号重复)');
  const current = await closeIfExpired(db, order, now);
  if (current.tradeState === 'SUCCESS') return refuse(signer, 400, 'ORDERPAID', 'the order is already paid');
  if (current.tradeState === 'CLOSED') return refuse(signer, 400, 'ORDER_CLOSED', 'the order is closed');
  if (!h5) return signedResponse(signer, 200, { code_url: codeUrlOf(current) }, now);
  // Every H5 order call, a repeat with the same parameters too, hands out a fresh h5_url (the old ones lapse on their own).
  const pkg = String(randomInt(100_000_000, 2_000_000_000));
  return signedResponse(signer, 200, { h5_url: h5UrlOf(await recordH5Url(db, current, pkg, now), pkg) }, now);
}

/** The transaction as the query answers it (and as a notification's resource carries it). */
export function transactionOf(order: SandboxWechatOrder) {
  const paid = order.tradeState === 'SUCCESS';
  return {
    appid: order.appId,
    mchid: order.mchId,
    out_trade_no: order.outTradeNo,
    transaction_id: paid ? order.transactionId : undefined,
    trade_type: order.tradeType,
    trade_state: order.tradeState,
    trade_state_desc: paid ? '支付成功' : order.tradeState === 'CLOSED' ? '订单已关闭' : '订单未支付',
    bank_type: paid ? 'OTHERS' : undefined,
    attach: order.attach ?? '',
    success_time: paid && order.successTime ? beijingTime(order.successTime) : undefined,
    payer: paid ? { openid: 'oSandboxPayer0000000000000000' } : undefined,
    amount: { total: Number(order.amountMinor), payer_total: paid ? Number(order.amountMinor) : undefined, currency: 'CNY', payer_currency: 'CNY' },
  };
}

async function handleQuery(request: Request, db: Database, outTradeNo: string, now: Date): Promise<Response> {
  const auth = await authenticate(request, db, now);
  if (auth instanceof Response) return auth;
  const { keys, signer } = auth;
  const mchid = new URL(request.url).searchParams.get('mchid');
  if (mchid !== keys.mchId) return refuse(signer, 400, 'PARAM_ERROR', 'mchid query parameter must be the mchid of the Authorization header');
  const found = await findByOutTradeNo(db, keys.mchId, outTradeNo);
  if (!found) return refuse(signer, 404, 'ORDER_NOT_EXIST', 'no such order (订单不存在)');
  return signedResponse(signer, 200, transactionOf(await closeIfExpired(db, found, now)), now);
}

async function handleClose(request: Request, db: Database, outTradeNo: string, now: Date): Promise<Response> {
  const auth = await authenticate(request, db, now);
  if (auth instanceof Response) return auth;
  const { keys, signer } = auth;
  const body = parseJsonObject(auth.body);
  if (!body || body.mchid !== keys.mchId) return refuse(signer, 400, 'PARAM_ERROR', 'mchid must be the mchid of the Authorization header');
  const found = await findByOutTradeNo(db, keys.mchId, outTradeNo);
  if (!found) return refuse(signer, 404, 'ORDER_NOT_EXIST', 'no such order (订单不存在)');
  if (found.tradeState === 'SUCCESS') return refuse(signer, 400, 'ORDERPAID', 'the order is already paid');
  // API v3's answer for an order closed already (by a close, or its time_expire): 订单已关闭.
  if ((await closeIfExpired(db, found, now)).tradeState === 'CLOSED') return refuse(signer, 400, 'ORDER_CLOSED', '订单已关闭 (the order is closed)');
  await closeOrder(db, found);
  return signedResponse(signer, 204, undefined, now);
}

/**
 * `GET /v3/certificates`: the merchant's current platform certificates, each encrypted under its APIv3 key
 * (associated_data "certificate"). SDKs download before they can verify, so no `Wechatpay-Serial` is required here.
 */
async function handleCertificates(request: Request, db: Database, now: Date): Promise<Response> {
  const auth = await authenticate(request, db, now, { serialOptional: true });
  if (auth instanceof Response) return auth;
  const { keys, signer } = auth;
  const data = keys.platformCertificates.map((certificate) => {
    const { algorithm, nonce, associated_data, ciphertext } = encryptResource(certificate.certificatePem, keys.apiV3Key, 'certificate');
    return {
      serial_no: certificate.serial,
      effective_time: beijingTime(new Date(certificate.effectiveTime)),
      expire_time: beijingTime(new Date(certificate.expireTime)),
      encrypt_certificate: { algorithm, nonce, associated_data, ciphertext },
    };
  });
  return signedResponse(signer, 200, { data }, now);
}

/** `GET /v3/bill/tradebill`: the signed answer naming the day's bill. */
async function handleTradeBill(request: Request, db: Database, now: Date): Promise<Response> {
  const auth = await authenticate(request, db, now);
  if (auth instanceof Response) return auth;
  const url = new URL(request.url);
  const downloadBase = `${addressedOrigin(request)}${url.pathname.replace(/bill\/tradebill$/, 'billdownload/file')}`;
  const answer = await tradeBill(db, url.searchParams, auth.keys, now, downloadBase);
  return signedResponse(auth.signer, answer.status, answer.body, now);
}

/** `GET /v3/billdownload/file`: the bill's file; WeChat does not sign it (its SHA1 is in the tradebill answer). */
async function handleBillDownload(request: Request, db: Database, now: Date): Promise<Response> {
  const auth = await authenticate(request, db, now, { serialOptional: true });
  if (auth instanceof Response) return auth;
  return billDownload(db, new URL(request.url).searchParams, auth.keys, now);
}

/** Routes `v3/…` (what follows the mount point `/sandbox/wechat/`). */
export async function handleSandboxWechatApi(request: Request, path: readonly string[], db: Database, now = new Date()): Promise<Response> {
  const route = path.join('/');
  const byOutTradeNo = /^v3\/pay\/transactions\/out-trade-no\/([^/]+)(\/close)?$/.exec(route);
  if (request.method === 'GET' && route === 'v3/certificates') return handleCertificates(request, db, now);
  if (request.method === 'GET' && route === 'v3/bill/tradebill') return handleTradeBill(request, db, now);
  if (request.method === 'GET' && route === 'v3/billdownload/file') return handleBillDownload(request, db, now);
  if (request.method === 'POST' && route === 'v3/pay/transactions/native') return handlePrepay(request, db, false, now);
  if (request.method === 'POST' && route === 'v3/pay/transactions/h5') return handlePrepay(request, db, true, now);
  if (byOutTradeNo && !byOutTradeNo[2] && request.method === 'GET') return handleQuery(request, db, byOutTradeNo[1]!, now);
  if (byOutTradeNo && byOutTradeNo[2] && request.method === 'POST') return handleClose(request, db, byOutTradeNo[1]!, now);
  if (request.method === 'POST' && route === 'v3/refund/domestic/refunds') return handleRefund(request, db, now);
  const refundQuery = /^v3\/refund\/domestic\/refunds\/([^/]+)$/.exec(route);
  if (refundQuery && request.method === 'GET') return handleRefundQuery(request, db, decodeURIComponent(refundQuery[1]!), now);
  const abnormalRemedy = /^v3\/refund\/domestic\/refunds\/([^/]+)\/apply-abnormal-refund$/.exec(route);
  if (abnormalRemedy && request.method === 'POST') return handleApplyAbnormalRefund(request, db, decodeURIComponent(abnormalRemedy[1]!), now);
  return Response.json({ code: 'NOT_FOUND', message: `no ${request.method} /${route} here` }, { status: 404 });
}
