import { eq } from 'drizzle-orm';
import type { CliCommand } from '@/lib/cli/command';
import { sandboxPayCommand } from '../sandbox-pay-command';
import type { Database } from '@/lib/db/client';
import { orders } from '@/lib/db/schema';
import { findAlipayCheckout } from '@/lib/channels/alipay/checkout-view';
import { handleGateway } from './gateway';
import { formatYuan } from './protocol';
import { paySandboxTrade, SandboxPayRefused } from './pay';
import { findAnyByOutTradeNo, type SandboxTrade } from './store';
import { planTradeRefund, sandboxAlipayRefundNamed, settleProcessingRefund } from './refund';
import { sandboxRefundCommands } from '../sandbox-refund-commands';
import { actionRefused } from '@/lib/errors/domain-error';
import { ALIPAY_CLOSE_PLANS, planTradeClose, type AlipayClosePlan } from './close-plan';

const payUsage = `usage: npm run sandbox -- alipay pay --order <platformOrderNo> [--no-notify] [--json]

Pays an ALIPAY order at the simulated Alipay as a payer would: when the payer has not opened the order's payUrl
yet, its signed page/wap pay request is built exactly as the checkout builds it and sent to the simulated gateway
first; then the trade is paid and the signed notification is sent to the service's notify_url (the service must be
running, at PUBLIC_BASE_URL, to receive it). Paying a paid trade sends the notification again.

  --order <platformOrderNo>  the service's platform order number (A…), Alipay's out_trade_no
  --no-notify                pay without sending the notification (a lost one: the service's poller must find it)
  --json                     print one JSON object: {"tradeNo","outTradeNo","amount","status","newlyPaid","notify"}`;

/** The payer's browser opening payUrl: the checkout's gateway URL, followed to the simulated gateway. */
async function openCheckoutAsPayer(db: Database, orderNo: string): Promise<SandboxTrade> {
  const [order] = await db.select({ payToken: orders.payToken, channel: orders.channel }).from(orders).where(eq(orders.orderNo, orderNo)).limit(1);
  if (!order || order.channel !== 'ALIPAY') throw new SandboxPayRefused(`no ALIPAY order ${orderNo}`);
  const checkout = await findAlipayCheckout(db, order.payToken);
  if (!checkout?.gatewayUrl) throw new SandboxPayRefused(`order ${orderNo} cannot be paid (${checkout?.status ?? 'unknown'}${checkout?.unavailable ? ', no usable credential or gateway' : ''})`);
  const answer = await handleGateway(new Request(checkout.gatewayUrl), db);
  if (answer.status !== 303) throw new SandboxPayRefused(`the simulated gateway refused the order's request: ${(await answer.text()).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300)}`);
  return (await findAnyByOutTradeNo(db, orderNo))!;
}

export const alipayPay = sandboxPayCommand({
  group: 'alipay',
  summary: 'pay a sandbox ALIPAY order and send its notification',
  usage: payUsage,
  silentFlag: 'no-notify',
  refused: SandboxPayRefused,
  async pay(db, orderNo, notify) {
    if (!(await findAnyByOutTradeNo(db, orderNo))) await openCheckoutAsPayer(db, orderNo);
    const { trade, newlyPaid, notify: sent } = await paySandboxTrade(db, { outTradeNo: orderNo }, { notify });
    const notifyText = !notify
      ? 'notification not sent (--no-notify)'
      : !sent
        ? 'no notify_url'
        : sent.error
          ? `notification to ${sent.url} failed: ${sent.error}`
          : `notification to ${sent.url}: HTTP ${sent.httpStatus} ${JSON.stringify(sent.body.slice(0, 100))}${sent.acknowledged ? '' : ' (not acknowledged)'}`;
    return {
      json: { tradeNo: trade.tradeNo, outTradeNo: trade.outTradeNo, amount: formatYuan(trade.amountMinor), status: trade.status, newlyPaid, notify: sent ?? null },
      text: `${newlyPaid ? 'paid' : 'already paid'}: ${trade.outTradeNo} (${trade.tradeNo}) ¥${formatYuan(trade.amountMinor)}\n${notifyText}`,
    };
  },
});

const closePlanChoices = [...Object.keys(ALIPAY_CLOSE_PLANS), 'none'];

/** `close-plan`: how the simulated Alipay answers alipay.trade.close for a trade that is not waiting. */
export const alipayClosePlan: CliCommand = {
  group: 'alipay',
  action: 'close-plan',
  summary: "set how the simulator answers the close of a trade that is not waiting",
  usage: `usage: npm run sandbox -- alipay close-plan --order <platformOrderNo> --plan ${closePlanChoices.join('|')} [--json]

The trade must exist (the payer opened the order's payUrl, or alipay pay made it).

${Object.entries(ALIPAY_CLOSE_PLANS)
  .map(([name, meaning]) => `  ${name.padEnd(16)}${meaning}`)
  .join('\n')}
  ${'none'.padEnd(16)}the default: ACQ.REASON_TRADE_STATUS_INVALID for a paid trade, ACQ.TRADE_STATUS_ERROR for a closed one`,
  options: { order: { type: 'string' }, plan: { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const orderNo = args.required('order').trim();
    const choice = args.required('plan');
    if (!closePlanChoices.includes(choice)) args.fail(`option --plan must be one of ${closePlanChoices.join(', ')}`);
    return async (db) => {
      if (!(await planTradeClose(db, orderNo, choice === 'none' ? null : (choice as AlipayClosePlan)))) throw actionRefused(`no sandbox alipay trade ${orderNo} (the payer has not opened its payUrl)`);
      return { json: { order: orderNo, plan: choice }, text: `${orderNo}: close ${choice}` };
    };
  },
};

export const alipaySandboxCommands: CliCommand[] = [
  alipayPay,
  alipayClosePlan,
  ...sandboxRefundCommands({
    group: 'alipay',
    plans: {
      processing: 'the refund is accepted (fund_change=N) and stays processing until refund-settle',
      fail: 'the refund is refused: ACQ.SELLER_BALANCE_NOT_ENOUGH',
      timeout_once: "the refund is made, its answer comes after the caller's timeout (SANDBOX_SLOW_ANSWER_MS), once",
      unavailable_after_refund: 'the refund is made, the answer is 20000 isp.unknow-error, once',
      system_error_after_refund: 'the refund is made, the answer is 40004 ACQ.SYSTEM_ERROR, once',
      aop_system_error_after_refund: 'the refund is made, the answer is 40004 aop.ACQ.SYSTEM_ERROR (relayed by the gateway), once',
    },
    plan: planTradeRefund,
    settle: (db, refundNo, _status, successTime) => settleProcessingRefund(db, refundNo, successTime),
    acceptedAt: async (db, refundNo) => (await sandboxAlipayRefundNamed(db, refundNo))?.createdAt,
    statuses: ['REFUND_SUCCESS'],
    successTimeName: "Alipay's gmt_refund_pay",
  }),
];

/** This simulator's commands, listed by scripts/sandbox.ts's SIMULATORS. */
export const sandboxCommands: readonly CliCommand[] = alipaySandboxCommands;
