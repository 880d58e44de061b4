import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createGzip } from 'node:zlib';
import { Readable } from 'node:stream';
import { and, asc, eq, gt, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '@/lib/db/client';
import type { SandboxWechatKeysRow } from '@/lib/channels/wechat/schema';
import { sandboxWechatBillPlans, sandboxWechatConsoleRefunds, sandboxWechatOrders, sandboxWechatRefunds, type SandboxWechatOrderRow } from './schema';

/**
 * The trade bill of WeChat Pay API v3 as documented: `GET /v3/bill/tradebill?bill_date&bill_type&tar_type` answers
 * the download_url (valid 30 s) with the SHA1 hash_value of the uncompressed file; the file is CSV: a header, one
 * row per trade paid that day (SUCCESS, or REVOKED when revoked after payment) and per refund accepted that day
 * (REFUND; "商户退款受理成功时间", with the status it had when the bill was made, 10:00 the next day: "出账后退款状态不会
 * 更新"), every value prefixed with a backtick and quoted after it when it holds a comma, then the summary header and
 * its row. The bill of a day is made after 10:00 the next day (Beijing time): before, STATEMENT_CREATING; a day
 * without a trade is 400 NO_STATEMENT_EXIST; only the last three months can be asked for. Some merchants are still
 * served the older layout (总金额 / 企业红包金额, no 订单金额 / 申请退款金额): a bill plan (sandbox control) serves it,
 * or answers STATEMENT_CREATING for a day, on demand.
 */

export const BILL_URL_LIFETIME_MS = 30_000;
const BATCH = 1_000;
const OFFSET_MS = 8 * 3600_000;
/** The bill of a day is made at 10:00 the next day, Beijing time: 34 hours after the day began. */
const BILL_MADE_AFTER_MS = 34 * 3600_000;
const LAYOUTS = {
  current: {
    header: '交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率,订单金额,申请退款金额,费率备注',
    summaryHeader: '总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额',
  },
  legacy: {
    header: '交易时间,公众账号ID,商户号,子商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,总金额,企业红包金额,微信退款单号,商户退款单号,退款金额,企业红包退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率',
    summaryHeader: '总交易单数,总交易额,总退款金额,总企业红包退款金额,手续费总金额',
  },
} as const;
type Layout = keyof typeof LAYOUTS;
const BILL_TYPES = ['ALL', 'SUCCESS', 'REFUND'] as const;
type BillType = (typeof BILL_TYPES)[number];

export type BillRequest = { mchId: string; day: string; billType: BillType; gzip: boolean; layout: Layout };

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

/** A refund's 退款状态 when the bill was made (SUCCESS, PROCESSING, REFUNDCLOSE, CHANGE for an abnormal one). */
function refundStatusAt(refund: { status: string; successTime: Date | null }, madeAt: Date): string {
  if (refund.status === 'SUCCESS') return refund.successTime && refund.successTime.getTime() <= madeAt.getTime() ? 'SUCCESS' : 'PROCESSING';
  if (refund.status === 'CLOSED') return 'REFUNDCLOSE';
  if (refund.status === 'ABNORMAL') return 'CHANGE';
  return 'PROCESSING';
}

/** One detail row in the bill's layout: the current one has 应结/代金券 amounts and 订单金额 / 申请退款金额 after 费率. */
function detailRow(layout: Layout, row: { at: Date; order: SandboxWechatOrderRow; state: string; totalMinor: bigint; refund?: { refundId: string; outRefundNo: string; amountMinor: bigint; status: string } }): string {
  const { order, refund } = row;
  const total = yuan(row.totalMinor);
  const refunded = refund ? yuan(refund.amountMinor) : '0.00';
  const head = [beijing(row.at), order.appId, order.mchId, '0', '', order.transactionId, order.outTradeNo, 'oSandboxPayer0000000000000000', order.tradeType, row.state, 'OTHERS', 'CNY', total, '0.00', refund?.refundId ?? '0', refund?.outRefundNo ?? '0', refunded, '0.00', refund ? 'ORIGINAL' : '', refund?.status ?? '', order.description, order.attach ?? '', '0.00000', '0.60%'];
  return (layout === 'current' ? [...head, total, refunded, ''] : head).map(field).join(',');
}

/** The bill's lines, read from the simulator's orders and refunds batch by batch. */
async function* billLines(db: Database, request: BillRequest): AsyncGenerator<string> {
  const { start, end } = dayBounds(request.day)!;
  const madeAt = new Date(start.getTime() + BILL_MADE_AFTER_MS);
  const layout = LAYOUTS[request.layout];
  let count = 0;
  let settled = 0n;
  let refundedTotal = 0n;
  let total = 0n;
  yield layout.header;
  if (request.billType !== 'REFUND') {
    let after = 0;
    for (;;) {
      const paid = await db
        .select()
        .from(sandboxWechatOrders)
        .where(and(eq(sandboxWechatOrders.mchId, request.mchId), inArray(sandboxWechatOrders.tradeState, ['SUCCESS', 'REVOKED', 'REFUND']), gte(sandboxWechatOrders.successTime, start), lt(sandboxWechatOrders.successTime, end), gt(sandboxWechatOrders.id, after)))
        .orderBy(asc(sandboxWechatOrders.id))
        .limit(BATCH);
      for (const order of paid) {
        count += 1;
        settled += order.amountMinor;
        total += order.amountMinor;
        yield detailRow(request.layout, { at: order.successTime!, order, state: order.tradeState === 'REVOKED' ? 'REVOKED' : 'SUCCESS', totalMinor: order.amountMinor });
      }
      if (paid.length < BATCH) break;
      after = paid.at(-1)!.id;
    }
  }
  if (request.billType !== 'SUCCESS') {
    const refundLine = (order: SandboxWechatOrderRow, refund: { refundId: string; outRefundNo: string; amountMinor: bigint; status: string; at: Date }) => {
      count += 1;
      refundedTotal += refund.amountMinor;
      return detailRow(request.layout, { at: refund.at, order, state: 'REFUND', totalMinor: 0n, refund });
    };
    // Every refund accepted during the day, whatever became of it: those asked for through /v3/refund/domestic/refunds
    // and those made by hand in the merchant platform.
    let after = 0;
    for (;;) {
      const refunds = await db
        .select({ refund: sandboxWechatRefunds, order: sandboxWechatOrders })
        .from(sandboxWechatRefunds)
        .innerJoin(sandboxWechatOrders, eq(sandboxWechatOrders.transactionId, sandboxWechatRefunds.transactionId))
        .where(and(eq(sandboxWechatRefunds.mchId, request.mchId), gte(sandboxWechatRefunds.createdAt, start), lt(sandboxWechatRefunds.createdAt, end), gt(sandboxWechatRefunds.id, after)))
        .orderBy(asc(sandboxWechatRefunds.id))
        .limit(BATCH);
      for (const { refund, order } of refunds) yield refundLine(order, { ...refund, status: refundStatusAt(refund, madeAt), at: refund.createdAt });
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
      for (const { refund, order } of refunds) yield refundLine(order, { ...refund, status: 'SUCCESS', at: refund.refundedAt });
      if (refunds.length < BATCH) break;
      afterConsole = refunds.at(-1)!.refund.id;
    }
  }
  yield layout.summaryHeader;
  const summary = request.layout === 'current' ? [String(count), yuan(settled), yuan(refundedTotal), '0.00', '0.00000', yuan(total), yuan(refundedTotal)] : [String(count), yuan(total), yuan(refundedTotal), '0.00', '0.00000'];
  yield summary.map(field).join(',');
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
        OR EXISTS (SELECT 1 FROM sandbox_wechat_refunds WHERE mch_id = ${mchId} AND created_at >= ${start} AND created_at < ${end}) AS found`);
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
  if (bounds.end.getTime() > now.getTime()) return refuse(400, 'NO_STATEMENT_EXIST', '账单文件不存在 (no bill for this date: the day has not ended)');
  const [plan] = await db.select().from(sandboxWechatBillPlans).where(and(eq(sandboxWechatBillPlans.mchId, keys.mchId), eq(sandboxWechatBillPlans.day, day)));
  if (plan?.plan === 'creating' || now.getTime() < bounds.start.getTime() + BILL_MADE_AFTER_MS) return refuse(400, 'STATEMENT_CREATING', '账单生成中，请稍后再试 (the bill is made after 10:00 the next day, Beijing time)');
  if (!(await hasRows(db, keys.mchId, bounds.start, bounds.end))) return refuse(400, 'NO_STATEMENT_EXIST', '账单文件不存在 (no trade on this date)');
  const request: BillRequest = { mchId: keys.mchId, day, billType, gzip: tarType === 'GZIP', layout: plan?.plan === 'legacy' ? 'legacy' : 'current' };
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

/** Sandbox control: what the simulated WeChat Pay does with a day's bill ('creating', 'legacy'; null: as it would). */
export async function planWechatBill(db: Database, input: { mchId: string; day: string; plan: 'creating' | 'legacy' | null }): Promise<void> {
  if (!dayBounds(input.day)) throw new Error(`day ${input.day} is not yyyy-MM-dd`);
  if (input.plan === null) {
    await db.delete(sandboxWechatBillPlans).where(and(eq(sandboxWechatBillPlans.mchId, input.mchId), eq(sandboxWechatBillPlans.day, input.day)));
    return;
  }
  await db
    .insert(sandboxWechatBillPlans)
    .values({ mchId: input.mchId, day: input.day, plan: input.plan })
    .onConflictDoUpdate({ target: [sandboxWechatBillPlans.mchId, sandboxWechatBillPlans.day], set: { plan: input.plan } });
}

/**
 * A payment to the same merchant number through another app or a shop's own terminal (not through the service): the
 * mchid's bill lists it like any other.
 */
export async function orderOfAnotherApp(db: Database, input: { mchId: string; appId: string; outTradeNo: string; amountMinor: bigint; paidAt: Date; description?: string }) {
  const unique = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const [order] = await db
    .insert(sandboxWechatOrders)
    .values({
      payId: `elsewhere-${unique}`,
      transactionId: `4200${unique}`.slice(0, 28),
      prepayId: `wx${unique}`,
      mchId: input.mchId,
      appId: input.appId,
      outTradeNo: input.outTradeNo,
      tradeType: 'MICROPAY',
      description: input.description ?? '门店收款',
      amountMinor: input.amountMinor,
      notifyUrl: 'https://shop.example/notify',
      timeExpire: new Date(input.paidAt.getTime() + 3600_000),
      tradeState: 'SUCCESS',
      successTime: input.paidAt,
      createdAt: input.paidAt,
    })
    .returning();
  return order!;
}
