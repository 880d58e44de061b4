import type { Database } from '../../lib/db/client';
import type { DevSandboxModule } from '../../lib/channels/channel';
import { forgetEvmCursors } from '../../lib/channels/usdt/evm/evm-cursor';
import { startSandboxEvm } from './sandbox-evm';
import { SANDBOX_EVM_CHAINS, type SandboxEvmChainName } from './sandbox-evm-chains';

/** The nodes' ports from SANDBOX_EVM_BASE_PORT's value: one each, in the chains' order (8545, 8546, 8547). */
export function sandboxEvmPortsFrom(base: number): Record<SandboxEvmChainName, number> {
  return Object.fromEntries((Object.keys(SANDBOX_EVM_CHAINS) as SandboxEvmChainName[]).map((name, index) => [name, base + index])) as Record<SandboxEvmChainName, number>;
}

/**
 * `npm run dev` with the sandbox on: one ganache node per EVM chain (a block every second, so BEP20's depth rule sees
 * blocks keep coming), and their settings put in the environment before the worker reads them, so the service
 * watches them. Skipped when USDT_EVM_CHAINS is set (the developer points the service at nodes of their own) or with
 * SANDBOX_EVM=off. SANDBOX_EVM_BASE_PORT moves the three nodes (default 8545, 8546, 8547). A node that cannot start
 * (port taken) leaves the EVM chains off, said in one line: this is the development sandbox, never production.
 */
export async function startDevSandboxEvm(log: (line: string) => void): Promise<{ chains: string[]; close(): Promise<void> } | undefined> {
  if (process.env.USDT_EVM_CHAINS || process.env.SANDBOX_EVM === 'off') return undefined;
  const names = Object.keys(SANDBOX_EVM_CHAINS) as SandboxEvmChainName[];
  const ports = process.env.SANDBOX_EVM_BASE_PORT ? sandboxEvmPortsFrom(Number(process.env.SANDBOX_EVM_BASE_PORT)) : undefined;
  try {
    const sandbox = await startSandboxEvm({ blockTimeSeconds: 1, ports });
    Object.assign(process.env, sandbox.serviceSettings());
    process.env.EVM_POLL_MS ??= '1000';
    log(`sandbox evm: ${names.map((name) => `${name} ${sandbox.node(name).rpcUrl}`).join(', ')} (sandbox USDT ${sandbox.node('ERC20').token})`);
    return { chains: names, close: () => sandbox.close() };
  } catch (error) {
    log(`sandbox evm: not started (${(error as Error).message.split('\n')[0]}); USDT on ERC20/BEP20/POLYGON is off. Set SANDBOX_EVM_BASE_PORT to free ports, or SANDBOX_EVM=off.`);
    return undefined;
  }
}

/**
 * The USDT channel's devSandbox (lib/channels/channel.ts): the nodes, and no cursor kept from the previous run's
 * chains (the nodes' chains are new: an old cursor would read as a re-org below it).
 */
export const startDevSandbox: DevSandboxModule['startDevSandbox'] = async (db: Database, log) => {
  const sandbox = await startDevSandboxEvm(log);
  if (sandbox) await forgetEvmCursors(db, sandbox.chains);
  return sandbox;
};
