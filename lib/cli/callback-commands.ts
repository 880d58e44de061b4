import type { CliCommand } from './command';

const listUsage = `usage: npm run admin -- callback list [--channel <channel>] [--attention] [--order <orderNo>] [--json]

Lists the callbacks upstream channels sent (and the payments the pollers found), newest first (at most 100), with
what the service made of each: paid, duplicate, ignored, late_payment, bad_signature, wrong_merchant,
unknown_order, amount_mismatch, trade_no_mismatch, malformed.

  --channel <channel>   only this channel's (its payType)
  --attention           only those that need an operator: forgeries, mismatches, unknown orders, late payments
  --order <orderNo>     only those about this platform order number
  --json                print one JSON object: {"callbacks":[{"id","channel","kind","receivedAt","outTradeNo","tradeNo","orderStatus","verdict","detail","answer"}]}`;

export const callbackList: CliCommand = {
  group: 'callback',
  action: 'list',
  summary: 'list upstream callbacks and what was made of them (forgeries, mismatches, late payments)',
  usage: listUsage,
  options: { channel: { type: 'string' }, attention: { type: 'boolean' }, order: { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const filter = { channel: args.optional('channel'), attentionOnly: args.flag('attention'), orderNo: args.optional('order') };
    return async (db) => {
      const { listUpstreamCallbacks } = await import('../channels/list-upstream-callbacks');
      const rows = await listUpstreamCallbacks(db, filter);
      const callbacks = rows.map((row) => ({ ...row, receivedAt: row.receivedAt.toISOString() }));
      const text =
        callbacks.length === 0
          ? 'no callbacks'
          : callbacks
              .map((row) => `#${row.id} ${row.receivedAt} ${row.channel} ${row.kind} ${row.outTradeNo ?? '-'} ${row.verdict}${row.answer ? ` (answered ${row.answer})` : ''}${row.detail ? ` — ${row.detail}` : ''}`)
              .join('\n');
      return { json: { callbacks }, text };
    };
  },
};

export const callbackCommands: CliCommand[] = [callbackList];
