import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { getAddress, type Address } from 'viem';
import { SANDBOX_EVM_CHAINS, type SandboxEvmChainName } from './chain-specs';
import { connectSandboxNode } from './remote-transfer';

/**
 * Mainnet-like background traffic on a running sandbox EVM node: at the network's own block pace (mainnetBlockMs), one
 * block of USDT transfers between addresses that are not the service's, `perSecond × block time` of them, until
 * `minutes` have passed. A block the node could not take in time (a slow machine) is left out rather than sent late
 * in a burst, and counted. Pay orders meanwhile as usual (evm transfer): the watcher must find them among the traffic
 * with one eth_getLogs per range.
 */
export interface EvmTrafficPlan {
  chain: SandboxEvmChainName;
  rpcUrl: string;
  perSecond: number;
  minutes: number;
  /** Different seeds give different addresses and amounts; the same seed the same traffic. */
  seed: string;
}

export interface EvmTrafficMade {
  chain: SandboxEvmChainName;
  blocks: number;
  transfers: number;
  /** Block slots that passed while the node was still taking an earlier block: left out. */
  skippedBlocks: number;
  fromBlock: number | null;
  toBlock: number | null;
}

const STRANGERS = 512;

function strangers(seed: string): Address[] {
  return Array.from({ length: STRANGERS }, (_, index) => getAddress(`0x${createHash('sha256').update(`${seed}:${index}`).digest('hex').slice(0, 40)}`));
}

export async function runEvmTraffic(plan: EvmTrafficPlan): Promise<EvmTrafficMade> {
  const node = await connectSandboxNode(plan.chain, plan.rpcUrl);
  const blockMs = SANDBOX_EVM_CHAINS[plan.chain].mainnetBlockMs;
  const perBlock = Math.max(1, Math.round((plan.perSecond * blockMs) / 1000));
  const addresses = strangers(plan.seed);
  const startedAt = Date.now();
  const endsAt = startedAt + plan.minutes * 60_000;
  const made: EvmTrafficMade = { chain: plan.chain, blocks: 0, transfers: 0, skippedBlocks: 0, fromBlock: null, toBlock: null };
  for (let slot = 0; startedAt + slot * blockMs < endsAt; slot += 1) {
    const wait = startedAt + slot * blockMs - Date.now();
    if (wait < -blockMs) {
      made.skippedBlocks += 1;
      continue;
    }
    if (wait > 0) await sleep(wait);
    const recipients = Array.from({ length: perBlock }, (_, index) => addresses[(slot * perBlock + index) % STRANGERS]!);
    const value = 1_000n + (BigInt(`0x${createHash('sha256').update(`${plan.seed}:value:${slot}`).digest('hex').slice(0, 12)}`) % 5_000_000_000n);
    // A block must be taken within a few of its slots; past that the node is stuck, and the command says so.
    const { blockNumber } = await node.send('transferMany', [recipients, value], Math.max(10_000, blockMs * 4));
    made.blocks += 1;
    made.transfers += perBlock;
    made.fromBlock ??= Number(blockNumber);
    made.toBlock = Number(blockNumber);
  }
  return made;
}
