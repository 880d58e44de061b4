import { describe, expect, it } from 'vitest';
import { alipayBillRows } from '../channels/alipay/trade-bill';
import { wechatBillRows } from '../channels/wechat/trade-bill';
import type { UpstreamRow } from './bill-row';

async function* linesOf(text: string) {
  yield* text.split('\n');
}

async function all(rows: AsyncIterable<UpstreamRow>): Promise<UpstreamRow[]> {
  const list: UpstreamRow[] = [];
  for await (const row of rows) list.push(row);
  return list;
}

const ALIPAY_HEADER = '支付宝交易号,商户订单号,业务类型,商品名称,创建时间,完成时间,门店编号,门店名称,操作员,终端号,对方账户,订单金额（元）,商家实收（元）,支付宝红包（元）,集分宝（元）,支付宝优惠（元）,商家优惠（元）,券核销金额（元）,券名称,商家红包消费金额（元）,卡消费金额（元）,退款批次号/请求号,服务费（元）,分润（元）,备注';
const WECHAT_HEADER = '交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率,订单金额,申请退款金额,费率备注';
const WECHAT_LEGACY_HEADER = '交易时间,公众账号ID,商户号,子商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,总金额,企业红包金额,微信退款单号,商户退款单号,退款金额,企业红包退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率';
/** As WeChat Pay writes a value: a backtick first, then the value, quoted when it holds a comma or a quote. */
const wechatRow = (fields: string[]) => fields.map((field) => `\`${/[",]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field}`).join(',');

describe('Alipay trade bill detail', () => {
  it('reads trades and refunds, padded fields and quoted names, skipping the # lines', async () => {
    const bill = [
      '#支付宝业务明细查询',
      '#账号：[20881234567890120156]',
      ALIPAY_HEADER,
      '2026030122001\t,A1\t,交易\t,"会员, 金卡"\t,2026-03-01 10:00:00\t,2026-03-01 10:00:05\t,,,,,a***@x.com\t,12.50\t,12.50\t,0.00,0.00,0.00,0.00,0.00,,0.00,0.00,\t,0.00,0.00,',
      '2026030122001\t,A1\t,退款\t,"会员, 金卡"\t,2026-03-01 10:00:00\t,2026-03-01 12:00:00\t,,,,,a***@x.com\t,-2.50\t,-2.50\t,0.00,0.00,0.00,0.00,0.00,,0.00,0.00,R1\t,0.00,0.00,',
      '#-----------------------------------------业务明细列表结束------------------------------------',
      '#交易合计：1笔，商家实收：￥12.50元。',
    ].join('\r\n');
    expect(await all(alipayBillRows(linesOf(bill)))).toEqual([
      { kind: 'trade', reference: 'A1', upstreamReference: '2026030122001', refundReference: '', amountMinor: 1250n, status: 'success', occurredAt: new Date('2026-03-01T02:00:05Z') },
      { kind: 'refund', reference: 'A1', upstreamReference: '2026030122001', refundReference: 'R1', amountMinor: 250n, status: 'success', occurredAt: new Date('2026-03-01T04:00:00Z') },
    ]);
  });

  it('refuses what it cannot read as documented, naming the line or column', async () => {
    await expect(all(alipayBillRows(linesOf('#only comments')))).rejects.toThrow(/no header line/);
    await expect(all(alipayBillRows(linesOf('支付宝交易号,商户订单号')))).rejects.toThrow(/no column 业务类型/);
    await expect(all(alipayBillRows(linesOf(`${ALIPAY_HEADER}\nT,A,冻结,x,,,,,,,,1.00,1.00,,,,,,,,,,,,`)))).rejects.toThrow(/line 2: business type "冻结"/);
    await expect(all(alipayBillRows(linesOf(`${ALIPAY_HEADER}\nT,A,交易,x,,,,,,,,1.005,1.00,,,,,,,,,,,,`)))).rejects.toThrow(/line 2: 订单金额（元） "1.005"/);
  });
});

describe('WeChat Pay trade bill', () => {
  const success = wechatRow(['2026-03-01 10:00:05', 'wxa', '190', '0', '', '4200001', 'W1', 'o1', 'NATIVE', 'SUCCESS', 'OTHERS', 'CNY', '9.90', '0.00', '0', '0', '0.00', '0.00', '', '', '季度会员', '', '0.06', '0.60%', '9.90', '0.00', '']);
  const revoked = wechatRow(['2026-03-01 11:00:00', 'wxa', '190', '0', '', '4200002', 'W2', 'o1', 'NATIVE', 'REVOKED', 'OTHERS', 'CNY', '5.00', '0.00', '0', '0', '0.00', '0.00', '', '', 'x', '', '0.03', '0.60%', '5.00', '0.00', '']);
  const refund = wechatRow(['2026-03-01 12:00:00', 'wxa', '190', '0', '', '4200001', 'W1', 'o1', 'NATIVE', 'REFUND', 'OTHERS', 'CNY', '0.00', '0.00', '5030001', 'RF1', '1.00', '0.00', 'ORIGINAL', 'SUCCESS', '季度会员', '', '0.00', '0.60%', '0.00', '1.00', '']);
  const summary = (count: number) => ['总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额', wechatRow([String(count), '14.90', '1.00', '0.00', '0.09', '14.90', '1.00'])];

  it('reads trades, revoked trades and refunds without their backticks, the summary count checked', async () => {
    const rows = await all(wechatBillRows(linesOf([WECHAT_HEADER, success, revoked, refund, ...summary(3)].join('\r\n'))));
    expect(rows.map(({ kind, reference, refundReference, amountMinor, status }) => ({ kind, reference, refundReference, amountMinor, status }))).toEqual([
      { kind: 'trade', reference: 'W1', refundReference: '', amountMinor: 990n, status: 'success' },
      { kind: 'trade', reference: 'W2', refundReference: '', amountMinor: 500n, status: 'REVOKED' },
      { kind: 'refund', reference: 'W1', refundReference: 'RF1', amountMinor: 100n, status: 'success' },
    ]);
    expect(rows[0]!.occurredAt).toEqual(new Date('2026-03-01T02:00:05Z'));
  });

  it('refuses a file cut short or whose summary does not count its rows', async () => {
    await expect(all(wechatBillRows(linesOf([WECHAT_HEADER, success, revoked].join('\n'))))).rejects.toThrow(/without its summary/);
    await expect(all(wechatBillRows(linesOf([WECHAT_HEADER, success, ...summary(2)].join('\n'))))).rejects.toThrow(/summary counts 2 rows, 1 were read/);
    await expect(all(wechatBillRows(linesOf([WECHAT_HEADER, '`2026-03-01 10:00:05,`wxa'].join('\n'))))).rejects.toThrow(/line 2: 2 fields, the header has 27/);
  });
});

describe('WeChat Pay trade bill as WeChat writes it', () => {
  const summary = (count: number) => ['总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额', wechatRow([String(count), '0.00', '0.00', '0.00', '0.00', '0.00', '0.00'])];
  const row = (overrides: { outTradeNo: string; state: string; product?: string; attach?: string; total?: string; refund?: string; refundNo?: string; refundState?: string }) =>
    wechatRow(['2026-03-01 10:00:05', 'wxa', '190', '0', '', '4200001', overrides.outTradeNo, 'o1', 'NATIVE', overrides.state, 'OTHERS', 'CNY', overrides.total ?? '0.00', '0.00', overrides.refundNo ? '5030001' : '0', overrides.refundNo ?? '0', overrides.refund ?? '0.00', '0.00', overrides.refundNo ? 'ORIGINAL' : '', overrides.refundState ?? '', overrides.product ?? 'x', overrides.attach ?? '', '0.06', '0.60%', overrides.total ?? '0.00', overrides.refund ?? '0.00', '']);

  it('reads a value holding a comma or a quote, quoted after its backtick (a product name, an attach)', async () => {
    const trade = row({ outTradeNo: 'W1', state: 'SUCCESS', product: '会员, 季度', attach: 'a,"b",c', total: '9.90' });
    expect(trade).toContain('`"会员, 季度"');
    const rows = await all(wechatBillRows(linesOf([WECHAT_HEADER, trade, ...summary(1)].join('\r\n'))));
    expect(rows).toEqual([expect.objectContaining({ kind: 'trade', reference: 'W1', amountMinor: 990n, status: 'success' })]);
  });

  it("keeps a refund's status as the bill had it: processing and closed are read as such, success as success", async () => {
    const lines = [
      WECHAT_HEADER,
      row({ outTradeNo: 'W1', state: 'REFUND', refund: '1.00', refundNo: 'RF1', refundState: 'PROCESSING' }),
      row({ outTradeNo: 'W1', state: 'REFUND', refund: '2.00', refundNo: 'RF2', refundState: 'REFUNDCLOSE' }),
      row({ outTradeNo: 'W1', state: 'REFUND', refund: '3.00', refundNo: 'RF3', refundState: 'SUCCESS' }),
      ...summary(3),
    ];
    const rows = await all(wechatBillRows(linesOf(lines.join('\n'))));
    expect(rows.map(({ refundReference, amountMinor, status }) => ({ refundReference, amountMinor, status }))).toEqual([
      { refundReference: 'RF1', amountMinor: 100n, status: 'processing' },
      { refundReference: 'RF2', amountMinor: 200n, status: 'closed' },
      { refundReference: 'RF3', amountMinor: 300n, status: 'success' },
    ]);
  });

  it('reads the older layout (总金额, 企业红包金额; no 订单金额 / 申请退款金额) WeChat still serves some merchants', async () => {
    const legacy = [
      WECHAT_LEGACY_HEADER,
      wechatRow(['2018-09-17 10:19:25', 'wxa', '151', '0', 'WEB', '4200000159', 'W1', 'oCq4', 'APP', 'SUCCESS', 'CFT', 'CNY', '12.30', '0.00', '0', '0', '0.00', '0.00', '', '', '备注，三国演义', '上海店', '0.07000', '0.60%']),
      wechatRow(['2018-09-17 11:53:15', 'wxa', '151', '0', 'WEB', '4200000159', 'W1', 'oCq4', 'APP', 'REFUND', 'CFT', 'CNY', '0.00', '0.00', '50000707', 'RF1', '2.30', '0.00', 'ORIGINAL', 'SUCCESS', '备注，三国演义', '上海店', '0.00000', '0.60%']),
      '总交易单数,总交易额,总退款金额,总企业红包退款金额,手续费总金额',
      wechatRow(['2', '12.30', '2.30', '0.00', '0.07000']),
    ];
    const rows = await all(wechatBillRows(linesOf(legacy.join('\r\n'))));
    expect(rows.map(({ kind, refundReference, amountMinor, status }) => ({ kind, refundReference, amountMinor, status }))).toEqual([
      { kind: 'trade', refundReference: '', amountMinor: 1230n, status: 'success' },
      { kind: 'refund', refundReference: 'RF1', amountMinor: 230n, status: 'success' },
    ]);
  });

  it('refuses a header in no documented layout, naming what it lacks', async () => {
    const header = WECHAT_HEADER.replace(',订单金额', ',金额').replace(',申请退款金额', ',退款申请');
    await expect(all(wechatBillRows(linesOf([header, ...summary(0)].join('\n'))))).rejects.toThrow(/neither 订单金额 and 申请退款金额 \(the current layout\) nor 总金额 and 企业红包金额/);
  });
});

