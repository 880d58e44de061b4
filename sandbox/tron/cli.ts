import type { CliCommand } from '../../lib/cli/command';
import { UsageError } from '../../lib/cli/usage-error';
import { actionRefused } from '../../lib/errors/domain-error';
import { sendSandboxTransfer, SandboxTransferRefused, confirmationDelayMs } from './ledger';

const transferUsage = `usage: npm run sandbox -- tron transfer --to <address> --amount <usdt> [--from <address>] [--index-delay-ms <ms>] [--json]

Sends simulated USDT (TRC20) on the sandbox chain. The transfer is final (its block solidified) after the sandbox's
confirmation delay (SANDBOX_TRON_CONFIRM_MS, 3 s by default); the service's chain watcher then matches it to an order.

  --to <address>          the receiving address (base58, T…)
  --amount <usdt>         USDT with at most 6 decimals, e.g. 10.5 (pay exactly the checkout's amount to pay an order)
  --from <address>        the payer's address (a fixed sandbox payer by default)
  --index-delay-ms <ms>   the indexer lists the transfer only this long after its block time (a block indexed late)
  --json                  print one JSON object: {"transactionId","blockNumber","blockTimestamp","from","to","amount","confirmsAt"}`;

export const tronTransfer: CliCommand = {
  group: 'tron',
  action: 'transfer',
  summary: 'send simulated USDT (TRC20) to an address on the sandbox chain',
  usage: transferUsage,
  options: { to: { type: 'string' }, amount: { type: 'string' }, from: { type: 'string' }, 'index-delay-ms': { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const to = args.required('to');
    const amount = args.required('amount');
    const from = args.optional('from');
    const indexDelay = args.optional('index-delay-ms');
    if (indexDelay !== undefined && !/^\d+$/.test(indexDelay)) throw new UsageError('--index-delay-ms must be a whole number of milliseconds', transferUsage);
    return async (db) => {
      try {
        const transfer = await sendSandboxTransfer(db, { to, amount, from, indexDelayMs: indexDelay === undefined ? undefined : Number(indexDelay) });
        const confirmsAt = new Date(transfer.blockTimestampMs + confirmationDelayMs()).toISOString();
        return {
          json: {
            transactionId: transfer.transactionId,
            blockNumber: transfer.blockNumber,
            blockTimestamp: transfer.blockTimestampMs,
            from: transfer.from,
            to: transfer.to,
            amount,
            confirmsAt,
          },
          text: `sent ${amount} USDT to ${transfer.to} in block ${transfer.blockNumber} (tx ${transfer.transactionId}); final at ${confirmsAt}`,
        };
      } catch (error) {
        if (error instanceof SandboxTransferRefused) throw actionRefused(error.message);
        throw error;
      }
    };
  },
};

export const tronSandboxCommands: CliCommand[] = [tronTransfer];

/** This simulator's commands, listed by scripts/sandbox.ts's SIMULATORS. */
export const sandboxCommands: readonly CliCommand[] = tronSandboxCommands;
