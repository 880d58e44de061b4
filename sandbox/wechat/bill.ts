import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createGzip } from 'node:zlib';
import { Readable } from 'node:stream';
import { and, asc, eq, gt, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '@/lib/db/client';
import type { SandboxWechatKeysRow } from '@/lib/channels/wechat/schema';
import { sandboxWechatConsoleRefunds, sandboxWechatOrders, sandboxWechatRefunds, type SandboxWechatOrderRow } from './schema';

/**
 * The trade bill of WeChat Pay API v3 as documented: `GET /v3/bill/tradebill?bill_date&bill_type&tar_type` answers
 * the download_url (valid 30 s) with the SHA1 hash_value of the uncompressed file; the file is CSV: a header, one
 * row per trade paid that day (SUCCESS, or REVOKED when revoked after payment) and refund (REFUND) that succeeded during the Beijing day, every field prefixed with a backtick, then
 * the summary header and its row. Bills are made T+1; a day without a bill is 400 NO_STATEMENT_EXIST; only the last
 * three months can be asked for.
 */

export const BILL_URL_LIFETIME_MS = 30_000;
const BATCH = 1_000;
const OFFSET_MS = 8 * 3600_000;
const HEADER =
  '交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率,订单金额,申请退款金额,费率备注';
const SUMMARY_HEADER = '总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额';
const BILL_TYPES = ['ALL', 'SUCCESS', 'REFUND'] as const;
type BillType = (typeof BILL_TYPES)[number];

export type BillRequest = { mchId: string; day: string; billType: BillType; gzip: boolean };

function yuan(minor: bigint): string {
  return `${minor / 100n}.${(minor % 100n).toString().padStart(2, '0')}`;
}

function beijing(at: Date): string {
  return new Date(at.getTime() + OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

function dayBounds(day: string): { start: Date; end: Date } | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const start = new Date(`${day}T00:00:00+08:00`);
  if (Number.isNaN(start.getTime()) || new Date(start.getTime() + OFFSET_MS).toISOString().slice(0, 10) !== day) return undefined;
  return { start, end: new Date(start.getTime() + 86_400_000) };
}

const field = (value: string) => `\`${/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value}`;

/** The bill's lines, read from the simulator's orders and refunds batch by batch. */
async function* billLines(db: Database, request: BillRequest): AsyncGenerator<string> {
  const { start, end } = dayBounds(request.day)!;
  let count = 0;
  let settled = 0n;
  let refundedTotal = 0n;
  let total = 0n;
  yield HEADER;
  if (request.billType !== 'REFUND') {
    let after = 0;
    for (;;) {
      const paid = await db
        .select()
        .from(sandboxWechatOrders)
        .where(and(eq(sandboxWechatOrders.mchId, request.mchId), inArray(sandboxWechatOrders.tradeState, ['SUCCESS', 'REVOKED']), gte(sandboxWechatOrders.successTime, start), lt(sandboxWechatOrders.successTime, end), gt(sandboxWechatOrders.id, after)))
        .orderBy(asc(sandboxWechatOrders.id))
        .limit(BATCH);
      for (const order of paid) {
        count += 1;
        settled += order.amountMinor;
        total += order.amountMinor;
        const amount = yuan(order.amountMinor);
        yield [beijing(order.successTime!), order.appId, order.mchId, '0', '', order.transactionId, order.outTradeNo, 'oSandboxPayer0000000000000000', order.tradeType, order.tradeState, 'OTHERS', 'CNY', amount, '0.00', '0', '0', '0.00', '0.00', '', '', order.description, order.attach ?? '', '0.00000', '0.60%', amount, '0.00', ''].map(field).join(',');
      }
      if (paid.length < BATCH) break;
      after = paid.at(-1)!.id;
    }
  }
  if (request.billType !== 'SUCCESS') {
    const refundLine = (order: SandboxWechatOrderRow, refund: { refundId: string; outRefundNo: string; amountMinor: bigint; at: Date }) => {
      count += 1;
      refundedTotal += refund.amountMinor;
      const amount = yuan(refund.amountMinor);
      return [beijing(refund.at), order.appId, order.mchId, '0', '', order.transactionId, order.outTradeNo, 'oSandboxPayer0000000000000000', order.tradeType, 'REFUND', 'OTHERS', 'CNY', '0.00', '0.00', refund.refundId, refund.outRefundNo, amount, '0.00', 'ORIGINAL', 'SUCCESS', order.description, order.attach ?? '', '0.00000', '0.60%', '0.00', amount, ''].map(field).join(',');
    };
    // Every refund that succeeded during the day: those asked for through /v3/refund/domestic/refunds and those made
    // by hand in the merchant platform.
    let after = 0;
    for (;;) {
      const refunds = await db
        .select({ refund: sandboxWechatRefunds, order: sandboxWechatOrders })
        .from(sandboxWechatRefunds)
        .innerJoin(sandboxWechatOrders, eq(sandboxWechatOrders.transactionId, sandboxWechatRefunds.transactionId))
        .where(and(eq(sandboxWechatRefunds.mchId, request.mchId), eq(sandboxWechatRefunds.status, 'SUCCESS'), gte(sandboxWechatRefunds.successTime, start), lt(sandboxWechatRefunds.successTime, end), gt(sandboxWechatRefunds.id, after)))
        .orderBy(asc(sandboxWechatRefunds.id))
        .limit(BATCH);
      for (const { refund, order } of refunds) yield refundLine(order, { ...refund, at: refund.successTime! });
      if (refunds.length < BATCH) break;
      after = refunds.at(-1)!.refund.id;
    }
    let afterConsole = 0;
    for (;;) {
      const refunds = await db
        .select({ refund: sandboxWechatConsoleRefunds, order: sandboxWechatOrders })
        .from(sandboxWechatConsoleRefunds)
        .innerJoin(sandboxWechatOrders, eq(sandboxWechatOrders.transactionId, sandboxWechatConsoleRefunds.transactionId))
        .where(and(eq(sandboxWechatOrders.mchId, request.mchId), gte(sandboxWechatConsoleRefunds.refundedAt, start), lt(sandboxWechatConsoleRefunds.refundedAt, end), gt(sandboxWechatConsoleRefunds.id, afterConsole)))
        .orderBy(asc(sandboxWechatConsoleRefunds.id))
        .limit(BATCH);
      for (const { refund, order } of refunds) yield refundLine(order, { ...refund, at: refund.refundedAt });
      if (refunds.length < BATCH) break;
      afterConsole = refunds.at(-1)!.refund.id;
    }
  }
  yield SUMMARY_HEADER;
  yield [String(count), yuan(settled), yuan(refundedTotal), '0.00', '0.00000', yuan(total), yuan(refundedTotal)].map(field).join(',');
}

/** The bill file's bytes (UTF-8, \r\n line ends), uncompressed. */
async function* billBytes(db: Database, request: BillRequest): AsyncGenerator<Buffer> {
  let buffered: string[] = [];
  for await (const line of billLines(db, request)) {
    buffered.push(line);
    if (buffered.length >= 500) {
      yield Buffer.from(`${buffered.join('\r\n')}\r\n`, 'utf8');
      buffered = [];
    }
  }
  if (buffered.length > 0) yield Buffer.from(`${buffered.join('\r\n')}\r\n`, 'utf8');
}

async function hasRows(db: Database, mchId: string, start: Date, end: Date): Promise<boolean> {
  const { rows } = await db.execute<{ found: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM sandbox_wechat_orders WHERE mch_id = ${mchId} AND trade_state IN ('SUCCESS', 'REVOKED') AND success_time >= ${start} AND success_time < ${end})
        OR EXISTS (SELECT 1 FROM sandbox_wechat_console_refunds r JOIN sandbox_wechat_orders o ON o.transaction_id = r.transaction_id
                   WHERE o.mch_id = ${mchId} AND r.refunded_at >= ${start} AND r.refunded_at < ${end})
        OR EXISTS (SELECT 1 FROM sandbox_wechat_refunds WHERE mch_id = ${mchId} AND status = 'SUCCESS' AND success_time >= ${start} AND success_time < ${end}) AS found`);
  return rows[0]!.found;
}

function tokenSignature(payload: string, keys: SandboxWechatKeysRow): string {
  return createHmac('sha256', keys.apiV3Key).update(payload).digest('base64url');
}

export type TradeBillAnswer = { status: number; body: Record<string, unknown> };

/** `GET /v3/bill/tradebill`: the answer (status and body), `downloadBase` being the simulator's /v3/billdownload/file. */
export async function tradeBill(db: Database, query: URLSearchParams, keys: SandboxWechatKeysRow, now: Date, downloadBase: string): Promise<TradeBillAnswer> {
  const refuse = (status: number, code: string, message: string) => ({ status, body: { code, message } });
  const day = query.get('bill_date') ?? '';
  const bounds = dayBounds(day);
  if (!bounds) return refuse(400, 'PARAM_ERROR', 'bill_date must be yyyy-MM-dd');
  const billType = (query.get('bill_type') ?? 'ALL') as BillType;
  if (!BILL_TYPES.includes(billType)) return refuse(400, 'PARAM_ERROR', `bill_type must be one of ${BILL_TYPES.join(', ')}`);
  const tarType = query.get('tar_type');
  if (tarType !== null && tarType !== 'GZIP') return refuse(400, 'PARAM_ERROR', 'tar_type must be GZIP or absent');
  if (bounds.start.getTime() < now.getTime() - 92 * 86_400_000) return refuse(400, 'PARAM_ERROR', 'bill_date: only bills of the last three months can be downloaded');
  if (bounds.end.getTime() > now.getTime() || !(await hasRows(db, keys.mchId, bounds.start, bounds.end))) {
    return refuse(400, 'NO_STATEMENT_EXIST', '账单文件不存在 (no bill for this date: the day has not ended, or it had no trade)');
  }
  const request: BillRequest = { mchId: keys.mchId, day, billType, gzip: tarType === 'GZIP' };
  const hash = createHash('sha1');
  for await (const chunk of billBytes(db, request)) hash.update(chunk);
  const payload = Buffer.from(JSON.stringify({ ...request, expires: now.getTime() + BILL_URL_LIFETIME_MS })).toString('base64url');
  return { status: 200, body: { hash_type: 'SHA1', hash_value: hash.digest('hex'), download_url: `${downloadBase}?token=${payload}.${tokenSignature(payload, keys)}` } };
}

/** `GET /v3/billdownload/file?token=…` (authenticated like every call; the answer itself is not signed). */
export function billDownload(db: Database, query: URLSearchParams, keys: SandboxWechatKeysRow, now: Date): Response {
  const [payload = '', signature = ''] = (query.get('token') ?? '').split('.');
  const expected = Buffer.from(tokenSignature(payload, keys));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return Response.json({ code: 'PARAM_ERROR', message: 'token is not valid' }, { status: 400 });
  const request = JSON.parse(Buffer.from(payload, 'base64url').toString()) as BillRequest & { expires: number };
  if (request.expires < now.getTime()) return Response.json({ code: 'PARAM_ERROR', message: 'the download_url has expired (valid 30 seconds)' }, { status: 400 });
  const file = Readable.from(billBytes(db, request));
  const body = request.gzip ? file.pipe(createGzip()) : file;
  return new Response(Readable.toWeb(body) as ReadableStream, { status: 200, headers: { 'content-type': 'application/octet-stream' } });
}

/** A refund made by hand in the WeChat Pay merchant platform (not through the service), for a paid order. */
export async function refundInMerchantPlatform(db: Database, input: { transactionId: string; amountMinor: bigint; outRefundNo: string; at: Date }) {
  const [order] = await db.select().from(sandboxWechatOrders).where(eq(sandboxWechatOrders.transactionId, input.transactionId)).limit(1);
  if (!order || order.tradeState !== 'SUCCESS') throw new Error(`transaction ${input.transactionId} is not paid`);
  const refundId = `50300${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  await db.insert(sandboxWechatConsoleRefunds).values({ transactionId: input.transactionId, outRefundNo: input.outRefundNo, refundId, amountMinor: input.amountMinor, refundedAt: input.at });
}
