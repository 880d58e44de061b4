import type { CliCommand } from '../../lib/cli/command';
import { UsageError } from '../../lib/cli/usage-error';
import { decimalOption } from '../../lib/cli/decimal-option';
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

const trafficUsage = `usage: npm run sandbox -- tron traffic --per-second <n> [--minutes <m>] [--late-share <0..1>] [--max-late-ms <ms>] [--seed <text>] [--json]

Puts mainnet-like background traffic on the sandbox chain, from now on: USDT transfers between addresses that are
not the service's (mainnet carries about 30 a second), in 3-second blocks produced as the sandbox clock reaches them,
some blocks reaching the node late. Pay orders meanwhile as usual (tron transfer): the watcher must find them among
the traffic, within its request budget.

  --per-second <n>     background transfers a second (e.g. 30)
  --minutes <m>        how long, from now (default 60)
  --late-share <0..1>  the share of blocks that reach the node late (default 0.005: one block in 200)
  --max-late-ms <ms>   how late such a block can be (default 60000)
  --seed <text>        the same seed makes the same traffic (default: the start time)
  --json               print one JSON object: {"transfers","fromBlock","toBlock","lateBlocks"}`;

export const tronTraffic: CliCommand = {
  group: 'tron',
  action: 'traffic',
  summary: 'put mainnet-like background USDT traffic (N transfers a second, some blocks late) on the sandbox chain',
  usage: trafficUsage,
  options: { 'per-second': { type: 'string' }, minutes: { type: 'string' }, 'late-share': { type: 'string' }, 'max-late-ms': { type: 'string' }, seed: { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const option = (name: string, fallback: number, max: number) => decimalOption(args.optional(name), { name, fallback, max, usage: trafficUsage });
    const perSecond = decimalOption(args.required('per-second'), { name: 'per-second', fallback: 30, max: 1000, usage: trafficUsage });
    const minutes = option('minutes', 60, 24 * 60);
    const lateShare = option('late-share', 0.005, 1);
    const maxLateMs = option('max-late-ms', 60_000, 24 * 60 * 60 * 1000);
    const seed = args.optional('seed');
    return async (db) => {
      const { generateBackgroundTraffic } = await import('./traffic');
      const { sandboxNowMs } = await import('./sandbox-clock');
      const fromMs = sandboxNowMs();
      const made = await generateBackgroundTraffic(db, { fromMs, toMs: fromMs + minutes * 60_000, perSecond, lateShare, maxLateMs, seed: seed ?? String(fromMs) });
      return {
        json: made,
        text: `put ${made.transfers} background transfers in blocks ${made.fromBlock}–${made.toBlock} (${made.lateBlocks} of them late), ${perSecond} a second for ${minutes} minutes`,
      };
    };
  },
};

export const tronSandboxCommands: CliCommand[] = [tronTransfer, tronTraffic];

/** This simulator's commands, listed by scripts/sandbox.ts's SIMULATORS. */
export const sandboxCommands: readonly CliCommand[] = tronSandboxCommands;
