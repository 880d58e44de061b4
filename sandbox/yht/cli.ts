import type { CliCommand } from '@/lib/cli/command';
import { sandboxPayCommand } from '../sandbox-pay-command';
import { formatYuan } from './protocol';
import { paySandboxOrder, SandboxPayRefused } from './pay';

const payUsage = `usage: npm run sandbox -- yht pay --order <orderNo> [--no-callback] [--json]

Pays a sandbox YHT order as a payer would at the cashier, then sends the signed callback to the notify URL the
service gave at create (the service must be running to receive it). Paying an order that is already paid sends
the callback again.

  --order <orderNo>   the service's order number (Y…), the aggregator's outTradeNo
  --no-callback       pay without sending the callback (a lost callback: the service's poller must find it)
  --json              print one JSON object: {"tradeNo","outTradeNo","amount","status","newlyPaid","callback"}`;

export const yhtPay = sandboxPayCommand({
  group: 'yht',
  summary: 'pay a sandbox YHT order and send its callback',
  usage: payUsage,
  silentFlag: 'no-callback',
  refused: SandboxPayRefused,
  async pay(db, orderNo, sendCallback) {
    const { order, newlyPaid, callback } = await paySandboxOrder(db, { outTradeNo: orderNo }, { sendCallback });
    const callbackText = !callback
      ? 'callback not sent (--no-callback)'
      : callback.error
        ? `callback to ${callback.url} failed: ${callback.error}`
        : `callback to ${callback.url}: HTTP ${callback.httpStatus} ${JSON.stringify(callback.body.slice(0, 100))}${callback.acknowledged ? '' : ' (not acknowledged)'}`;
    return {
      json: {
        tradeNo: order.tradeNo,
        outTradeNo: order.outTradeNo,
        amount: formatYuan(order.amountMinor),
        status: order.status,
        newlyPaid,
        callback: callback ?? null,
      },
      text: `${newlyPaid ? 'paid' : 'already paid'}: ${order.outTradeNo} (${order.tradeNo}) ¥${formatYuan(order.amountMinor)}\n${callbackText}`,
    };
  },
});

export const yhtSandboxCommands: CliCommand[] = [yhtPay];

/** This simulator's commands, listed by scripts/sandbox.ts's SIMULATORS. */
export const sandboxCommands: readonly CliCommand[] = yhtSandboxCommands;
