import type { CliCommand } from './command';
import { cliActor } from './operator';

const completeUsage = `usage: npm run admin -- order complete --app-id <appId> --merchant-order-no <no> --reason <text> [--json]

Marks an order paid by hand, for a payment the upstream confirmed out of band (a closed order too). The action is
written to the audit log with who ($OPERATOR, else your user name), when and why, and the merchant is notified.

  --app-id <appId>             the merchant's AppId
  --merchant-order-no <no>     the merchant's order number
  --reason <text>              why: the upstream's confirmation, ticket number …
  --json                       print one JSON object: {"orderNo","merchantOrderNo","status","paidAt","auditId"}`;

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
      return {
        json: { orderNo: order.orderNo, merchantOrderNo: order.merchantOrderNo, status: 'paid', paidAt, auditId },
        text: `order ${order.orderNo} (${order.merchantOrderNo}) marked paid at ${paidAt}; audit entry ${auditId}; notification queued`,
      };
    };
  },
};

export const orderCommands: CliCommand[] = [orderComplete];
