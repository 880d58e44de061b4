import type { CliCommand } from '../../lib/cli/command';
import { UsageError } from '../../lib/cli/usage-error';
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

export const evmSandboxCommands: readonly CliCommand[] = [evmTransfer];

/** This simulator's commands, listed by scripts/sandbox.ts's SIMULATORS. */
export const sandboxCommands: readonly CliCommand[] = evmSandboxCommands;
