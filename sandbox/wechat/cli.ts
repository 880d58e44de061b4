import { planWechatRefund, settleSandboxWechatRefund } from './refund';
import { sandboxRefundCommands } from '../sandbox-refund-commands';
import type { CliCommand } from '@/lib/cli/command';
import { sandboxPayCommand } from '../sandbox-pay-command';
import { wechatMode, wechatRotateCertificate } from './keys-cli';
import { paySandboxWechatOrder, SandboxWechatPayRefused } from './pay';

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

export const wechatSandboxCommands: CliCommand[] = [
  wechatPay,
  wechatMode,
  wechatRotateCertificate,
  ...sandboxRefundCommands({
    group: 'wechat',
    plan: planWechatRefund,
    settle: (db, refundNo, status) => settleSandboxWechatRefund(db, refundNo, status as 'SUCCESS' | 'ABNORMAL' | 'CLOSED'),
    statuses: ['SUCCESS', 'ABNORMAL', 'CLOSED'],
  }),
];

/** This simulator's commands, listed by scripts/sandbox.ts's SIMULATORS. */
export const sandboxCommands: readonly CliCommand[] = wechatSandboxCommands;
