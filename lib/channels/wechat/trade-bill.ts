import { BillFormatError, billAmount, columnIndex, type UpstreamRow } from '../../reconciliation/bill-row';
import { csvFields } from '../../reconciliation/text-lines';

const COMMON = {
  time: '交易时间',
  transactionId: '微信订单号',
  outTradeNo: '商户订单号',
  state: '交易状态',
  outRefundNo: '商户退款单号',
  refundId: '微信退款单号',
  refundState: '退款状态',
} as const;

/**
 * Where each layout WeChat Pay serves carries a trade's and a refund's amount. The current one: 订单金额 (the order's
 * total, vouchers included; 应结订单金额 is net of non-recharge vouchers) and 申请退款金额 (the refund asked for;
 * 退款金额 is net of them), which are what the service sent. The older one, still served to some merchants, predates
 * those vouchers and names no such columns: 总金额 is the order's total and 退款金额 the refund.
 */
const LAYOUTS = {
  current: { ...COMMON, total: '订单金额', refund: '申请退款金额' },
  legacy: { ...COMMON, total: '总金额', refund: '退款金额' },
} as const;
type Columns = Record<keyof typeof LAYOUTS.current, number>;

const SUMMARY_FIRST = '总交易单数';
const BEIJING = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/;

/** The layout a header line is in; one that is neither is refused by the columns it lacks. */
function layoutOf(fields: readonly string[]): { titles: (typeof LAYOUTS)[keyof typeof LAYOUTS]; index: Columns } {
  if (fields.includes(LAYOUTS.current.total) && fields.includes(LAYOUTS.current.refund)) return { titles: LAYOUTS.current, index: columnIndex(fields, LAYOUTS.current) };
  if (fields.includes(LAYOUTS.legacy.total) && fields.includes('企业红包金额')) return { titles: LAYOUTS.legacy, index: columnIndex(fields, LAYOUTS.legacy) };
  throw new BillFormatError(`the bill's header is in no layout WeChat Pay documents: it has neither 订单金额 and 申请退款金额 (the current layout) nor 总金额 and 企业红包金额 (the older one)`);
}

/** A refund's 退款状态 as the matching reads it: 'success', 'closed', 'processing', or WeChat's own word. */
function refundStatus(text: string): string {
  if (text === 'SUCCESS') return 'success';
  if (text === 'REFUNDCLOSE' || text === 'CLOSED') return 'closed';
  if (text === 'PROCESSING') return 'processing';
  return text;
}

/**
 * The rows of WeChat Pay's trade bill (bill_type=ALL, decoded to lines): a header; one row per trade (交易状态
 * SUCCESS, or REVOKED for one revoked after payment) or refund (REFUND); then the summary header (总交易单数…) and
 * the summary row, whose count must equal the rows read (a truncated file is refused). Every value is prefixed with a
 * backtick (so that spreadsheets keep long numbers) and quoted after it when it holds a comma (a product name, an
 * attach). A refund is listed on the day WeChat accepted it, with the status it had when the bill was made (never
 * updated afterwards): 'processing' there is no difference.
 */
export async function* wechatBillRows(lines: AsyncIterable<string>): AsyncGenerator<UpstreamRow> {
  let index: Columns | undefined;
  let titles: (typeof LAYOUTS)[keyof typeof LAYOUTS] = LAYOUTS.current;
  let width = 0;
  let rows = 0;
  let lineNo = 0;
  let summary: 'no' | 'header' | 'done' = 'no';
  for await (const line of lines) {
    lineNo += 1;
    const text = line.replace(/^\uFEFF/, '');
    if (text.trim() === '') continue;
    const fields = csvFields(text, '`').map((field) => field.trim());
    if (!index) {
      ({ index, titles } = layoutOf(fields));
      width = fields.length;
      continue;
    }
    if (summary === 'header') {
      const count = Number(fields[0]);
      if (!Number.isSafeInteger(count) || count !== rows) throw new BillFormatError(`the bill's summary counts ${fields[0]} rows, ${rows} were read`);
      summary = 'done';
      continue;
    }
    if (summary === 'done') throw new BillFormatError(`line ${lineNo}: text after the summary`);
    if (fields[0] === SUMMARY_FIRST) {
      summary = 'header';
      continue;
    }
    if (fields.length !== width) throw new BillFormatError(`line ${lineNo}: ${fields.length} fields, the header has ${width}`);
    rows += 1;
    const field = (name: keyof Columns) => fields[index![name]]!;
    const state = field('state');
    const time = BEIJING.exec(field('time'));
    const occurredAt = time ? new Date(`${time[1]}T${time[2]}+08:00`) : undefined;
    const base = { reference: field('outTradeNo'), upstreamReference: field('transactionId'), occurredAt };
    if (state === 'REFUND') {
      yield { ...base, kind: 'refund', refundReference: field('outRefundNo') || field('refundId'), amountMinor: billAmount(field('refund'), titles.refund, lineNo), status: refundStatus(field('refundState')) };
    } else {
      yield { ...base, kind: 'trade', refundReference: '', amountMinor: billAmount(field('total'), titles.total, lineNo), status: state === 'SUCCESS' ? 'success' : state };
    }
  }
  if (!index) throw new BillFormatError('the bill is empty');
  if (summary !== 'done') throw new BillFormatError('the bill ends without its summary (truncated?)');
}
