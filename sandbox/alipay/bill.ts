import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, gt, gte, inArray, isNotNull, lt } from 'drizzle-orm';
import type { Database } from '@/lib/db/client';
import { ALIPAY_SANDBOX_SELLER_ID, type AlipaySandboxKeys } from '@/lib/channels/alipay/sandbox-keys';
import { encodeGbk } from './gbk';
import { beijingTime, formatYuan } from './protocol';
import { sandboxAlipayConsoleRefunds, sandboxAlipayRefunds, sandboxAlipayTrades, type SandboxAlipayTradeRow } from './schema';
import { refundedSum } from './refund';
import { zipStream } from './zip-stream';

/**
 * The trade bill (alipay.data.dataservice.bill.downloadurl.query, bill_type=trade) as Alipay documents it: a daily
 * bill of a Beijing day is published the next day (T+1; today's is isp.bill_not_exist); the answer's
 * bill_download_url is valid for 30 seconds and serves a zip of two GBK CSV files, the detail (…_业务明细.csv: a
 * '#' preamble, a header, one row per successful trade (交易) and per refund (退款) that succeeded during the day, '#' totals) and the
 * summary (…_业务明细(汇总).csv). The bill is the account's (the PID, 账号 in its preamble): every app's trades on it
 * are listed, whichever app asks.
 */

export const BILL_URL_LIFETIME_MS = 30_000;
const OFFSET_MS = 8 * 3600_000;
const BATCH = 1_000;
const HEADER =
  '支付宝交易号,商户订单号,业务类型,商品名称,创建时间,完成时间,门店编号,门店名称,操作员,终端号,对方账户,订单金额（元）,商家实收（元）,支付宝红包（元）,集分宝（元）,支付宝优惠（元）,商家优惠（元）,券核销金额（元）,券名称,商家红包消费金额（元）,卡消费金额（元）,退款批次号/请求号,服务费（元）,分润（元）,备注';

export type BillQueryAnswer = Record<string, unknown>;

function dayStart(day: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const at = new Date(`${day}T00:00:00+08:00`);
  return Number.isNaN(at.getTime()) || new Date(at.getTime() + OFFSET_MS).toISOString().slice(0, 10) !== day ? undefined : at;
}

function tokenSignature(payload: string, keys: AlipaySandboxKeys): string {
  return createHmac('sha256', keys.alipayPrivateKey).update(payload).digest('base64url');
}

/** The answer to alipay.data.dataservice.bill.downloadurl.query; `billUrlBase` is where the simulator serves files. */
export function billDownloadUrlQuery(biz: Record<string, unknown>, keys: AlipaySandboxKeys, now: Date, billUrlBase: string): BillQueryAnswer {
  const invalid = (message: string) => ({ code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-arguments', sub_msg: message });
  if (biz.bill_type !== 'trade' && biz.bill_type !== 'signcustomer') return invalid('bill_type must be trade or signcustomer');
  if (biz.bill_type !== 'trade') return invalid('the sandbox offers bill_type trade only');
  const day = typeof biz.bill_date === 'string' ? biz.bill_date : '';
  if (/^\d{4}-\d{2}$/.test(day)) return invalid('the sandbox offers daily bills only (bill_date yyyy-MM-dd)');
  const start = dayStart(day);
  if (!start) return invalid('bill_date must be yyyy-MM-dd (daily) or yyyy-MM (monthly)');
  // T+1: the day must have ended (Beijing time) before its bill exists.
  if (start.getTime() + 86_400_000 > now.getTime()) return { code: '40004', msg: 'Business Failed', sub_code: 'isp.bill_not_exist', sub_msg: '账单不存在' };
  const payload = Buffer.from(JSON.stringify({ appId: keys.appId, day, expires: now.getTime() + BILL_URL_LIFETIME_MS })).toString('base64url');
  return { code: '10000', msg: 'Success', bill_download_url: `${billUrlBase}?token=${payload}.${tokenSignature(payload, keys)}` };
}

/** The day a download token names, or why it is refused (forged, or past its 30 seconds). */
export function billOfToken(token: string, keys: AlipaySandboxKeys, now: Date): { day: string; appId: string } | { refused: string } {
  const [payload = '', signature = ''] = token.split('.');
  const expected = Buffer.from(tokenSignature(payload, keys));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { refused: 'the download link is not valid' };
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { appId: string; day: string; expires: number };
  if (claims.expires < now.getTime()) return { refused: 'the download link has expired (valid 30 seconds)' };
  return { day: claims.day, appId: claims.appId };
}

/** A field as the bill writes it: quoted when it holds a comma or a quote, padded with a tab as Alipay pads. */
function field(value: string): string {
  const text = /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
  return `${text}\t`;
}

interface DayTotals {
  trades: number;
  tradeMinor: bigint;
  refunds: number;
  refundMinor: bigint;
}

async function* detailLines(db: Database, day: string, totals: DayTotals): AsyncGenerator<string> {
  const start = dayStart(day)!;
  const end = new Date(start.getTime() + 86_400_000);
  yield '#支付宝业务明细查询';
  yield `#账号：[${ALIPAY_SANDBOX_SELLER_ID}0156]`;
  yield `#起始日期：[${day.replace(/^(\d+)-(\d+)-(\d+)$/, '$1年$2月$3日')} 00:00:00]   终止日期：[${beijingTime(end).slice(0, 10).replace(/^(\d+)-(\d+)-(\d+)$/, '$1年$2月$3日')} 00:00:00]`;
  yield '#-----------------------------------------业务明细列表----------------------------------------';
  yield HEADER;
  let after = 0;
  for (;;) {
    const trades = await db
      .select()
      .from(sandboxAlipayTrades)
      .where(and(inArray(sandboxAlipayTrades.status, ['TRADE_SUCCESS', 'TRADE_CLOSED']), isNotNull(sandboxAlipayTrades.paidAt), gte(sandboxAlipayTrades.paidAt, start), lt(sandboxAlipayTrades.paidAt, end), gt(sandboxAlipayTrades.id, after)))
      .orderBy(asc(sandboxAlipayTrades.id))
      .limit(BATCH);
    for (const trade of trades) {
      totals.trades += 1;
      totals.tradeMinor += trade.amountMinor;
      const amount = formatYuan(trade.amountMinor);
      yield [trade.tradeNo, trade.outTradeNo, '交易', trade.subject, beijingTime(trade.createdAt), beijingTime(trade.paidAt!), '', '', '', '', trade.buyerLogonId ?? '', amount, amount, '0.00', '0.00', '0.00', '0.00', '0.00', '', '0.00', '0.00', '', '0.00', '0.00', ''].map(field).join(',');
    }
    if (trades.length < BATCH) break;
    after = trades.at(-1)!.id;
  }
  const refundLine = (trade: SandboxAlipayTradeRow, refund: { outRequestNo: string; amountMinor: bigint; at: Date }) => {
    totals.refunds += 1;
    totals.refundMinor += refund.amountMinor;
    const amount = `-${formatYuan(refund.amountMinor)}`;
    return [trade.tradeNo, trade.outTradeNo, '退款', trade.subject, beijingTime(trade.createdAt), beijingTime(refund.at), '', '', '', '', trade.buyerLogonId ?? '', amount, amount, '0.00', '0.00', '0.00', '0.00', '0.00', '', '0.00', '0.00', refund.outRequestNo, '0.00', '0.00', ''].map(field).join(',');
  };
  // Every refund of the day is listed: those asked for through alipay.trade.refund once they succeeded, and those
  // made by hand in the console.
  let afterRefund = 0;
  for (;;) {
    const refunds = await db
      .select({ refund: sandboxAlipayRefunds, trade: sandboxAlipayTrades })
      .from(sandboxAlipayRefunds)
      .innerJoin(sandboxAlipayTrades, eq(sandboxAlipayTrades.tradeNo, sandboxAlipayRefunds.tradeNo))
      .where(and(eq(sandboxAlipayRefunds.status, 'REFUND_SUCCESS'), gte(sandboxAlipayRefunds.settledAt, start), lt(sandboxAlipayRefunds.settledAt, end), gt(sandboxAlipayRefunds.id, afterRefund)))
      .orderBy(asc(sandboxAlipayRefunds.id))
      .limit(BATCH);
    for (const { refund, trade } of refunds) yield refundLine(trade, { ...refund, at: refund.settledAt! });
    if (refunds.length < BATCH) break;
    afterRefund = refunds.at(-1)!.refund.id;
  }
  let afterConsoleRefund = 0;
  for (;;) {
    const refunds = await db
      .select({ refund: sandboxAlipayConsoleRefunds, trade: sandboxAlipayTrades })
      .from(sandboxAlipayConsoleRefunds)
      .innerJoin(sandboxAlipayTrades, eq(sandboxAlipayTrades.tradeNo, sandboxAlipayConsoleRefunds.tradeNo))
      .where(and(gte(sandboxAlipayConsoleRefunds.refundedAt, start), lt(sandboxAlipayConsoleRefunds.refundedAt, end), gt(sandboxAlipayConsoleRefunds.id, afterConsoleRefund)))
      .orderBy(asc(sandboxAlipayConsoleRefunds.id))
      .limit(BATCH);
    for (const { refund, trade } of refunds) yield refundLine(trade, { ...refund, at: refund.refundedAt });
    if (refunds.length < BATCH) break;
    afterConsoleRefund = refunds.at(-1)!.refund.id;
  }
  yield '#-----------------------------------------业务明细列表结束------------------------------------';
  yield `#交易合计：${totals.trades}笔，商家实收：￥${formatYuan(totals.tradeMinor)}元。`;
  yield `#退款合计：${totals.refunds}笔，商家实收：￥${totals.refundMinor === 0n ? '0.00' : `-${formatYuan(totals.refundMinor)}`}元。`;
  yield `#导出时间：[${beijingTime(new Date()).replace(/^(\d+)-(\d+)-(\d+)/, '$1年$2月$3日')}]`;
}

async function* summaryLines(day: string, totals: DayTotals): AsyncGenerator<string> {
  yield '#支付宝业务汇总查询';
  yield `#账号：[${ALIPAY_SANDBOX_SELLER_ID}0156]`;
  yield `#起始日期：[${day}]`;
  yield '门店编号,门店名称,交易订单总笔数,退款订单总笔数,已退款订单总笔数,订单金额（元）,商家实收（元）,支付宝优惠（元）,商家优惠（元）,卡消费金额（元）,服务费（元）,分润（元）,实收净额（元）';
  const net = totals.tradeMinor - totals.refundMinor;
  yield ['合计', '', String(totals.trades), String(totals.refunds), String(totals.refunds), formatYuan(totals.tradeMinor), formatYuan(totals.tradeMinor), '0.00', '0.00', '0.00', '0.00', '0.00', net < 0n ? `-${formatYuan(-net)}` : formatYuan(net)].join(',');
  yield '#-----------------------------------------业务汇总列表结束------------------------------------';
}

async function* gbkLines(lines: AsyncIterable<string>): AsyncGenerator<Buffer> {
  let buffered: string[] = [];
  for await (const line of lines) {
    buffered.push(line);
    if (buffered.length >= 500) {
      yield encodeGbk(`${buffered.join('\r\n')}\r\n`);
      buffered = [];
    }
  }
  if (buffered.length > 0) yield encodeGbk(`${buffered.join('\r\n')}\r\n`);
}

/** The archive a download token names, streamed: rows are read from the simulator's trades batch by batch. */
export function billArchive(db: Database, day: string): AsyncGenerator<Buffer> {
  const stem = `${ALIPAY_SANDBOX_SELLER_ID}0156_${day.replaceAll('-', '')}`;
  const totals: DayTotals = { trades: 0, tradeMinor: 0n, refunds: 0, refundMinor: 0n };
  return zipStream([
    { nameBytes: encodeGbk(`${stem}_业务明细.csv`), content: gbkLines(detailLines(db, day, totals)) },
    // Written after the detail, whose rows make its totals.
    { nameBytes: encodeGbk(`${stem}_业务明细(汇总).csv`), content: gbkLines(summaryLines(day, totals)) },
  ]);
}

/** `GET /sandbox/alipay/bill/download?token=…`: the zip of the day's bill while the link lives. */
export function handleBillDownload(request: Request, db: Database, keys: AlipaySandboxKeys, now = new Date()): Response {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  const bill = billOfToken(token, keys, now);
  if ('refused' in bill) return new Response(bill.refused, { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  const archive = billArchive(db, bill.day);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await archive.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await archive.return(undefined);
    },
  });
  return new Response(body, { headers: { 'content-type': 'application/zip', 'content-disposition': `attachment; filename="${ALIPAY_SANDBOX_SELLER_ID}0156_${bill.day.replaceAll('-', '')}.csv.zip"` } });
}

/**
 * A refund made by hand in the merchant's Alipay console (not through the service), for a paid trade: with the
 * trade's other refunds within its total, and, as Alipay closes a trade refunded in full wherever the refunds were made
 * (TRADE_CLOSED: "支付完成后全额退款"), the trade closed when this one completes it.
 */
export async function refundInConsole(db: Database, input: { tradeNo: string; amountMinor: bigint; outRequestNo: string; at: Date }) {
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [trade] = await tx.select().from(sandboxAlipayTrades).where(eq(sandboxAlipayTrades.tradeNo, input.tradeNo)).for('update').limit(1);
    if (!trade || trade.status !== 'TRADE_SUCCESS') throw new Error(`trade ${input.tradeNo} is not paid`);
    const refunded = (await refundedSum(tx, input.tradeNo)) + input.amountMinor;
    if (refunded > trade.amountMinor) throw new Error(`refunds of trade ${input.tradeNo} would exceed its amount`);
    await tx.insert(sandboxAlipayConsoleRefunds).values({ tradeNo: input.tradeNo, outRequestNo: input.outRequestNo, amountMinor: input.amountMinor, refundedAt: input.at });
    if (refunded === trade.amountMinor) await tx.update(sandboxAlipayTrades).set({ status: 'TRADE_CLOSED' }).where(eq(sandboxAlipayTrades.id, trade.id));
  });
}

/**
 * A trade paid on the same Alipay account through another app or at a shop (not through the service): the account's
 * bill lists it like any other.
 */
export async function tradeOfAnotherApp(db: Database, input: { appId: string; outTradeNo: string; amountMinor: bigint; paidAt: Date; subject?: string }) {
  const [trade] = await db
    .insert(sandboxAlipayTrades)
    .values({
      tradeNo: `${beijingTime(input.paidAt).slice(0, 10).replaceAll('-', '')}22001${String(Math.floor(Math.random() * 1e15)).padStart(15, '0')}`,
      appId: input.appId,
      outTradeNo: input.outTradeNo,
      method: 'alipay.trade.precreate',
      amountMinor: input.amountMinor,
      subject: input.subject ?? '门店收款',
      timeExpire: new Date(input.paidAt.getTime() + 3600_000),
      status: 'TRADE_SUCCESS',
      buyerLogonId: 'shop***@example.com',
      paidAt: input.paidAt,
      createdAt: input.paidAt,
    })
    .returning();
  return trade!;
}
