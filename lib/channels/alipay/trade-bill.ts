import { BillFormatError, billAmount, columnIndex, type UpstreamRow } from '../../reconciliation/bill-row';
import { csvFields } from '../../reconciliation/text-lines';
import { parseBeijingTime } from './beijing-time';

/** The columns of the trade bill's detail file (业务明细) that reconciliation reads, by their header. */
const COLUMNS = {
  tradeNo: '支付宝交易号',
  outTradeNo: '商户订单号',
  businessType: '业务类型',
  finishedAt: '完成时间',
  amount: '订单金额（元）',
  refundNo: '退款批次号/请求号',
} as const;

/**
 * The rows of Alipay's trade bill detail file (…_业务明细.csv, GBK, already decoded to lines): '#' lines are the
 * title, the account, the period and the closing totals; the first other line is the header; each further line is a
 * trade (交易) or a refund (退款). Fields are trimmed (Alipay pads them with tabs and spaces).
 */
export async function* alipayBillRows(lines: AsyncIterable<string>): AsyncGenerator<UpstreamRow> {
  let index: Record<keyof typeof COLUMNS, number> | undefined;
  let lineNo = 0;
  for await (const line of lines) {
    lineNo += 1;
    const text = line.replace(/^\uFEFF/, '');
    if (text.startsWith('#') || text.trim() === '') continue;
    const fields = csvFields(text).map((field) => field.trim());
    if (!index) {
      index = columnIndex(fields, COLUMNS);
      continue;
    }
    const field = (name: keyof typeof COLUMNS) => fields[index![name]] ?? '';
    const type = field('businessType');
    if (type !== '交易' && type !== '退款') throw new BillFormatError(`line ${lineNo}: business type ${JSON.stringify(type.slice(0, 20))} is neither 交易 nor 退款`);
    const reference = field('outTradeNo');
    if (reference === '') throw new BillFormatError(`line ${lineNo}: ${COLUMNS.outTradeNo} is empty`);
    yield {
      kind: type === '交易' ? 'trade' : 'refund',
      reference,
      upstreamReference: field('tradeNo'),
      refundReference: type === '退款' ? field('refundNo') : '',
      amountMinor: billAmount(field('amount'), COLUMNS.amount, lineNo),
      status: 'success',
      occurredAt: parseBeijingTime(field('finishedAt')),
    };
  }
  if (!index) throw new BillFormatError(`the bill has no header line naming ${COLUMNS.tradeNo}`);
}
