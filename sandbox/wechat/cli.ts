import { planWechatRefund, sandboxWechatRefundNamed, settleSandboxWechatRefund, WECHAT_REFUND_PLANS } from './refund';
import { sandboxRefundCommands } from '../sandbox-refund-commands';
import type { CliCommand } from '@/lib/cli/command';
import { sandboxPayCommand } from '../sandbox-pay-command';
import { wechatMode, wechatRotateCertificate } from './keys-cli';
import { paySandboxWechatOrder, SandboxWechatPayRefused } from './pay';
import { planWechatBill } from './bill';
import { sandboxWechatKeysOf } from '@/lib/channels/wechat/sandbox-keys';

const payUsage = `usage: npm run sandbox -- wechat pay --order <platformOrderNo> [--no-callback] [--json]

Pays a sandbox WeChat Pay order as a payer scanning its QR code (native) or opening its h5_url would, then sends
the encrypted, signed TRANSACTION.SUCCESS notification to the notify_url the service gave (the service must be
running to receive it). Paying an order that is already paid sends the notification again.

  --order <no>    the service's platformOrderNo (W…), WeChat's out_trade_no
  --no-callback   pay without notifying (a lost notification: the service's poller must find the payment)
  --json          print one JSON object: {"outTradeNo","transactionId","amount","tradeState","newlyPaid","callback"}`;

export const wechatPay = sandboxPayCommand({
  group: 'wechat',
  summary: 'pay a sandbox WeChat Pay order and send its notification',
  usage: payUsage,
  silentFlag: 'no-callback',
  refused: SandboxWechatPayRefused,
  async pay(db, orderNo, notify) {
    const { order, newlyPaid, notify: sent } = await paySandboxWechatOrder(db, { outTradeNo: orderNo }, { notify });
    const amount = `${order.amountMinor / 100n}.${(order.amountMinor % 100n).toString().padStart(2, '0')}`;
    const notifyText = !sent
      ? 'notification not sent (--no-callback)'
      : sent.error
        ? `notification to ${sent.url} failed: ${sent.error}`
        : `notification to ${sent.url}: HTTP ${sent.httpStatus}${sent.acknowledged ? '' : ` (not acknowledged: ${JSON.stringify(sent.body.slice(0, 100))})`}`;
    return {
      json: { outTradeNo: order.outTradeNo, transactionId: order.transactionId, amount, tradeState: order.tradeState, newlyPaid, callback: sent ?? null },
      text: `${newlyPaid ? 'paid' : 'already paid'}: ${order.outTradeNo} (${order.transactionId}) ¥${amount}\n${notifyText}`,
    };
  },
});

const BILL_PLANS = ['creating', 'legacy', 'none'] as const;

const billPlanUsage = `usage: npm run sandbox -- wechat bill-plan --date <yyyy-MM-dd> --plan ${BILL_PLANS.join('|')} [--json]

What the simulated WeChat Pay does with one day's trade bill (GET /v3/bill/tradebill). By default it answers
STATEMENT_CREATING until 10:00 Beijing time the next day, then serves the bill in the current layout.

  creating   the bill is still being made: STATEMENT_CREATING, whatever the time
  legacy     the bill is served in the older layout (总金额, 企业红包金额; no 订单金额 / 申请退款金额)
  none       as WeChat Pay would by default`;

export const wechatBillPlan: CliCommand = {
  group: 'wechat',
  action: 'bill-plan',
  summary: "set what the sandbox WeChat Pay does with a day's trade bill (still being made, older layout)",
  usage: billPlanUsage,
  options: { date: { type: 'string' }, plan: { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const day = args.required('date').trim();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) args.fail(`option --date must be a day as yyyy-MM-dd, got ${JSON.stringify(day)}`);
    const plan = args.required('plan') as (typeof BILL_PLANS)[number];
    if (!BILL_PLANS.includes(plan)) args.fail(`option --plan must be one of ${BILL_PLANS.join(', ')}`);
    return async (db) => {
      const { mchId } = await sandboxWechatKeysOf(db);
      await planWechatBill(db, { mchId, day, plan: plan === 'none' ? null : plan });
      return { json: { mchId, day, plan }, text: `${mchId} ${day}: bill ${plan}` };
    };
  },
};

export const wechatSandboxCommands: CliCommand[] = [
  wechatBillPlan,
  wechatPay,
  wechatMode,
  wechatRotateCertificate,
  ...sandboxRefundCommands({
    group: 'wechat',
    plans: WECHAT_REFUND_PLANS,
    plan: planWechatRefund,
    settle: (db, refundNo, status, successTime) => settleSandboxWechatRefund(db, refundNo, status as 'SUCCESS' | 'ABNORMAL' | 'CLOSED', { successTime }),
    acceptedAt: async (db, refundNo) => (await sandboxWechatRefundNamed(db, refundNo))?.createdAt,
    statuses: ['SUCCESS', 'ABNORMAL', 'CLOSED'],
    successTimeName: "WeChat Pay's success_time",
  }),
];

/** This simulator's commands, listed by scripts/sandbox.ts's SIMULATORS. */
export const sandboxCommands: readonly CliCommand[] = wechatSandboxCommands;
