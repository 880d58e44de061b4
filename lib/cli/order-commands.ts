import type { Database } from '../db/client';
import type { OrderRow } from '../db/schema';
import { formatMinorUnits } from '../money/decimal-amount';
import type { CliCommand } from './command';
import { cliActor } from './operator';

const completeUsage = `usage: npm run admin -- order complete --app-id <appId> --merchant-order-no <no> --reason <text> [--json]

Marks an order paid by hand, for a payment the upstream confirmed out of band (a closed order too). The action is
written to the audit log with who ($OPERATOR, else your user name), when and why, and the merchant is notified.

  --app-id <appId>             the merchant's AppId
  --merchant-order-no <no>     the merchant's order number
  --reason <text>              why: the upstream's confirmation, ticket number …
  --json                       print one JSON object: {"orderNo","merchantOrderNo","status","paidAt","auditId","shortfalls"}

A USDT order the payer paid short of (a transfer of less than was due) is still marked paid in full, with a warning
naming what was received and what is missing (the "shortfalls" list in JSON).`;

/** The short transfers linked to a USDT order (what the payer sent, and how much of what was due is missing). */
async function shortfallsOf(db: Database, order: OrderRow): Promise<{ received: string; due: string; shortBy: string; transactionId: string }[]> {
  const { channelNamed } = await import('../channels');
  const trail = await channelNamed(order.channel)?.paymentTrail?.(db, order);
  const due = formatMinorUnits(order.payAmountMinor);
  return (trail?.unpaidTransfers ?? []).filter((transfer) => transfer.problem === 'short').map((transfer) => ({ received: transfer.amount, due, shortBy: transfer.shortBy!, transactionId: transfer.transactionId }));
}

export const orderComplete: CliCommand = {
  group: 'order',
  action: 'complete',
  summary: 'mark an order paid by hand (audited) and notify the merchant',
  usage: completeUsage,
  options: { 'app-id': { type: 'string' }, 'merchant-order-no': { type: 'string' }, reason: { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const appId = args.required('app-id');
    const merchantOrderNo = args.required('merchant-order-no');
    const reason = args.required('reason').trim();
    if (reason === '') args.fail('option --reason must not be empty');
    return async (db) => {
      const { completeOrderManually } = await import('../orders/complete-order-manually');
      const { order, auditId } = await completeOrderManually(db, { appId, merchantOrderNo, reason, actor: cliActor(), now: new Date() });
      const paidAt = order.paidAt!.toISOString();
      const shortfalls = await shortfallsOf(db, order);
      const warnings = shortfalls.map((short) => `\nwarning: the payer sent ${short.received} of ${short.due} USDT (${short.shortBy} short, transaction ${short.transactionId}); the order is marked paid in full`);
      return {
        json: { orderNo: order.orderNo, merchantOrderNo: order.merchantOrderNo, status: 'paid', paidAt, auditId, shortfalls },
        text: `order ${order.orderNo} (${order.merchantOrderNo}) marked paid at ${paidAt}; audit entry ${auditId}; notification queued${warnings.join('')}`,
      };
    };
  },
};

export const orderCommands: CliCommand[] = [orderComplete];
