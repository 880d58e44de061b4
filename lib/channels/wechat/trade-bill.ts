import { BillFormatError, billAmount, columnIndex, type UpstreamRow } from '../../reconciliation/bill-row';
import { csvFields } from '../../reconciliation/text-lines';

const COLUMNS = {
  time: '交易时间',
  transactionId: '微信订单号',
  outTradeNo: '商户订单号',
  state: '交易状态',
  outRefundNo: '商户退款单号',
  refundId: '微信退款单号',
  refundState: '退款状态',
  total: '订单金额',
  refundRequested: '申请退款金额',
} as const;
const SUMMARY_FIRST = '总交易单数';
const BEIJING = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/;

/** A field without the backtick WeChat puts before every value (so that spreadsheets keep long numbers). */
const unticked = (field: string) => field.trim().replace(/^`/, '');

/**
 * The rows of WeChat Pay's trade bill (bill_type=ALL, decoded to lines): a header; one row per trade (交易状态
 * SUCCESS, or REVOKED for one revoked after payment) or refund (REFUND); then the summary header (总交易单数…) and
 * the summary row, whose count must equal the rows read (a truncated file is refused).
 */
export async function* wechatBillRows(lines: AsyncIterable<string>): AsyncGenerator<UpstreamRow> {
  let index: Record<keyof typeof COLUMNS, number> | undefined;
  let width = 0;
  let rows = 0;
  let lineNo = 0;
  let summary: 'no' | 'header' | 'done' = 'no';
  for await (const line of lines) {
    lineNo += 1;
    const text = line.replace(/^\uFEFF/, '');
    if (text.trim() === '') continue;
    const fields = csvFields(text).map(unticked);
    if (!index) {
      index = columnIndex(fields, COLUMNS);
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
    const field = (name: keyof typeof COLUMNS) => fields[index![name]]!;
    const state = field('state');
    const time = BEIJING.exec(field('time'));
    const occurredAt = time ? new Date(`${time[1]}T${time[2]}+08:00`) : undefined;
    if (state === 'REFUND') {
      yield {
        kind: 'refund',
        reference: field('outTradeNo'),
        upstreamReference: field('transactionId'),
        refundReference: field('outRefundNo') || field('refundId'),
        amountMinor: billAmount(field('refundRequested'), COLUMNS.refundRequested, lineNo),
        status: field('refundState') === 'SUCCESS' ? 'success' : field('refundState'),
        occurredAt,
      };
    } else {
      yield {
        kind: 'trade',
        reference: field('outTradeNo'),
        upstreamReference: field('transactionId'),
        refundReference: '',
        amountMinor: billAmount(field('total'), COLUMNS.total, lineNo),
        status: state === 'SUCCESS' ? 'success' : state,
        occurredAt,
      };
    }
  }
  if (!index) throw new BillFormatError('the bill is empty');
  if (summary !== 'done') throw new BillFormatError('the bill ends without its summary (truncated?)');
}
