import type { CliCommand } from '../../lib/cli/command';
import { UsageError } from '../../lib/cli/usage-error';
import { decimalOption } from '../../lib/cli/decimal-option';
import { actionRefused } from '../../lib/errors/domain-error';
import { isSandboxEvmChainName, SANDBOX_EVM_CHAINS } from './chain-specs';

const chainNames = Object.keys(SANDBOX_EVM_CHAINS).join('|');

const transferUsage = `usage: npm run sandbox -- evm transfer --chain <${chainNames}> --to <address> --amount <usdt> [--json]

Sends sandbox USDT from the sandbox payer on the chain's sandbox node (a real EVM node, ganache), reached at the first
of EVM_<CHAIN>_RPC_URLS, else at the node \`npm run dev\` starts (127.0.0.1:8545 / 8546 / 8547). The transaction is
mined at once; the service's EVM watcher counts it once its block is final.

  --chain <name>     ERC20 (Ethereum, 6 decimals), BEP20 (BNB Smart Chain, 18 decimals) or POLYGON (Polygon PoS, 6 decimals)
  --to <address>     the receiving address, 0x… with a valid EIP-55 checksum
  --amount <usdt>    USDT as a decimal, e.g. 10.5 (pay exactly the checkout's amount to pay an order)
  --json             print one JSON object: {"chain","transactionHash","blockNumber","from","to","amount","raw","token"}`;

export const evmTransfer: CliCommand = {
  group: 'evm',
  action: 'transfer',
  summary: 'send sandbox USDT on a sandbox EVM chain (ERC20, BEP20, POLYGON)',
  usage: transferUsage,
  options: { chain: { type: 'string' }, to: { type: 'string' }, amount: { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const chain = args.required('chain');
    const to = args.required('to');
    const amount = args.required('amount');
    if (!isSandboxEvmChainName(chain)) throw new UsageError(`--chain must be one of ${chainNames} (got ${chain})`, transferUsage);
    return async () => {
      // Loaded only for this command: the other sandbox commands start without viem.
      const { sandboxRpcUrl, sendSandboxEvmTransfer, SandboxEvmTransferRefused } = await import('./remote-transfer');
      try {
        const sent = await sendSandboxEvmTransfer({ chain, to, amount, rpcUrl: sandboxRpcUrl(chain) });
        return {
          json: { chain, transactionHash: sent.transactionHash, blockNumber: Number(sent.blockNumber), from: sent.from, to: sent.to, amount, raw: sent.raw.toString(), token: sent.token },
          text: `sent ${amount} USDT on ${chain} to ${sent.to} in block ${sent.blockNumber} (tx ${sent.transactionHash})`,
        };
      } catch (error) {
        if (error instanceof SandboxEvmTransferRefused) throw actionRefused(error.message);
        throw error;
      }
    };
  },
};

const trafficUsage = `usage: npm run sandbox -- evm traffic --chain <${chainNames}> --per-second <n> [--minutes <m>] [--seed <text>] [--json]

Puts mainnet-like background traffic on the chain's running sandbox node (reached as evm transfer reaches it), from
now on, for --minutes: a block of USDT transfers between addresses that are not the service's at the real network's
block pace (Ethereum 12 s, BNB Smart Chain 0.75 s, Polygon PoS 2 s). Pay orders meanwhile as usual (evm transfer):
the watcher must find them among the traffic. Runs in the foreground until the minutes have passed.

  --chain <name>       ERC20, BEP20 or POLYGON
  --per-second <n>     background transfers a second (USDT on Ethereum carries a few, on BNB Smart Chain tens)
  --minutes <m>        how long, from now (default 1)
  --seed <text>        the same seed makes the same traffic (default: the start time)
  --json               print one JSON object: {"chain","blocks","transfers","skippedBlocks","fromBlock","toBlock"}`;

export const evmTraffic: CliCommand = {
  group: 'evm',
  action: 'traffic',
  summary: 'put mainnet-like background USDT traffic (N transfers a second, at the network\'s block pace) on a sandbox EVM chain',
  usage: trafficUsage,
  options: { chain: { type: 'string' }, 'per-second': { type: 'string' }, minutes: { type: 'string' }, seed: { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const chain = args.required('chain');
    if (!isSandboxEvmChainName(chain)) throw new UsageError(`--chain must be one of ${chainNames} (got ${chain})`, trafficUsage);
    const perSecond = decimalOption(args.required('per-second'), { name: 'per-second', fallback: 5, max: 1000, aboveZero: true, usage: trafficUsage });
    const minutes = decimalOption(args.optional('minutes'), { name: 'minutes', fallback: 1, max: 24 * 60, aboveZero: true, usage: trafficUsage });
    const seed = args.optional('seed') ?? String(Date.now());
    return async () => {
      const [{ runEvmTraffic }, { sandboxRpcUrl, SandboxEvmTransferRefused }] = await Promise.all([import('./traffic'), import('./remote-transfer')]);
      try {
        const made = await runEvmTraffic({ chain, rpcUrl: sandboxRpcUrl(chain), perSecond, minutes, seed });
        const span = made.fromBlock === null ? 'no block' : `blocks ${made.fromBlock}–${made.toBlock}`;
        return { json: { ...made }, text: `put ${made.transfers} background transfers on ${chain} in ${made.blocks} blocks (${span}; ${made.skippedBlocks} slots left out), ${perSecond} a second for ${minutes} minutes` };
      } catch (error) {
        if (error instanceof SandboxEvmTransferRefused) throw actionRefused(error.message);
        throw error;
      }
    };
  },
};

export const evmSandboxCommands: readonly CliCommand[] = [evmTransfer, evmTraffic];

/** This simulator's commands, listed by scripts/sandbox.ts's SIMULATORS. */
export const sandboxCommands: readonly CliCommand[] = evmSandboxCommands;
