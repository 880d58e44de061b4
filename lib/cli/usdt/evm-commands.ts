import type { CliCommand } from '../command';
import { UsageError } from '../usage-error';
import { isEvmChainName, EVM_CHAIN_NAMES } from '../../channels/usdt/evm/evm-chains';

const resumeUsage = `usage: npm run admin -- evm resume --chain ${EVM_CHAIN_NAMES.join('|')} --after-block <n> [--json]

Resumes an EVM chain the watcher holds after a re-org below its cursor. First look at what the replaced blocks had
paid; then choose a block below the fork on the node's current chain: reading starts after it, so the transfers of the
chain that won are recorded from there (each transfer is recorded once, whatever is read again).

  --chain <chain>      the held chain: ${EVM_CHAIN_NAMES.join(', ')} (enabled by USDT_EVM_CHAINS, read through EVM_<CHAIN>_RPC_URLS)
  --after-block <n>    the last block not to read again
  --json               print one JSON object: {"chain","afterBlock","blockHash"}

The resumption is written to the audit log (who: $OPERATOR, else your user name); the console's Health page does
the same.`;

export const evmResume: CliCommand = {
  group: 'evm',
  action: 'resume',
  summary: 'resume an EVM chain held after a re-org',
  usage: resumeUsage,
  options: { chain: { type: 'string' }, 'after-block': { type: 'string' } },
  prepare(args) {
    const chain = args.required('chain').toUpperCase();
    if (!isEvmChainName(chain)) throw new UsageError(`--chain must be one of ${EVM_CHAIN_NAMES.join(', ')}`, resumeUsage);
    const afterText = args.required('after-block');
    if (!/^\d+$/.test(afterText)) throw new UsageError('--after-block must be a block number', resumeUsage);
    const afterBlock = BigInt(afterText);
    return async (db) => {
      const [{ resumeEvmChain }, { cliActor }] = await Promise.all([import('../../channels/usdt/evm/resume-evm-chain'), import('../operator')]);
      const { blockHash } = await resumeEvmChain(db, { chain, afterBlock, actor: cliActor() });
      return {
        json: { chain, afterBlock: afterBlock.toString(), blockHash },
        text: `resumed: ${chain} reads again after block ${afterBlock} (${blockHash})`,
      };
    };
  },
};

export const usdtEvmCommands: CliCommand[] = [evmResume];
