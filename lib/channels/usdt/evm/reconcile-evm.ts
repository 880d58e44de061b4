import { sql } from 'drizzle-orm';
import { encodeEventTopics, formatLog, getAddress, numberToHex, parseEventLogs, type Address, type PublicClient } from 'viem';
import type { Database } from '../../../db/client';
import type { UpstreamRow } from '../../../reconciliation/bill-row';
import { beijingDayBounds } from '../../../reconciliation/beijing-day';
import { transferRow } from '../chain/match-transfers';
import { rawUnitsPerCent } from './evm-amounts';
import type { EvmChainName } from './evm-chains';
import { evmSettings } from './evm-config';
import { dayBlockRange } from './evm-day-blocks';
import { EvmRpcPool, isRequestTooLarge } from './evm-rpc-pool';
import { TRANSFER_EVENT } from './watch-evm-chain';

/**
 * The first eth_getLogs range of a day's reading: with our addresses as topic, a range holds few logs, so it starts
 * at 2,000 blocks (the range Alchemy documents for responses of any size) or the chain's EVM_<CHAIN>_LOG_RANGE if
 * larger, and is halved while the provider refuses it (a lower block-range cap, or "more than 10000 results").
 */
const FIRST_RANGE = 2_000n;
/** Recipients per request: geth refuses more than 1,000 alternatives in one topic position. */
const ADDRESSES_PER_REQUEST = 1_000;

/**
 * The token's Transfer logs to `recipients` in [from, to]. eth_getLogs is sent as such (viem's getLogs would check
 * every log again against every recipient on our side) and the logs decoded strictly.
 */
async function transferLogsTo(client: PublicClient, token: Address, recipients: readonly Address[], from: bigint, to: bigint) {
  const topics = encodeEventTopics({ abi: [TRANSFER_EVENT], eventName: 'Transfer', args: { to: [...recipients] } });
  const logs = await client.request({ method: 'eth_getLogs', params: [{ address: token, topics, fromBlock: numberToHex(from), toBlock: numberToHex(to) }] });
  return parseEventLogs({ abi: [TRANSFER_EVENT], logs: logs.map((log) => formatLog(log)), strict: true });
}

/**
 * The day's USDT transfers to our receiving addresses on one EVM chain, read again from the chain whatever the
 * watcher's cursor says: the token's Transfer logs whose recipient (topic 2) is one of the pool's addresses on the
 * chain, over the day's blocks (dayBlockRange: nothing before the day is final), range by range. Every call goes
 * through the chain's endpoint pool (its deadline and failover). Amounts in the chain's decimals (6, or 18 on BEP20).
 */
export async function* evmTransfers(db: Database, chain: EvmChainName, day: string, signal: AbortSignal): AsyncGenerator<UpstreamRow> {
  const { chains, rateLimitBackoffMs } = evmSettings();
  const settings = chains.find((candidate) => candidate.definition.name === chain);
  if (!settings) throw new Error(`${chain} is not enabled (USDT_EVM_CHAINS)`);
  const rpc = new EvmRpcPool(chain, settings.rpcUrls, { chainId: settings.chainId, rateLimitBackoffMs });
  const blocks = await dayBlockRange(rpc, settings, day, beijingDayBounds(day)!);
  if (!blocks) return;
  const { rows } = await db.execute<{ address: Address }>(sql`SELECT address FROM receiving_addresses WHERE chain = ${chain} ORDER BY id`);
  const addresses = rows.map((row) => row.address);
  const rawPerCent = rawUnitsPerCent(settings.definition.decimals);
  let range = FIRST_RANGE > BigInt(settings.logRange) ? FIRST_RANGE : BigInt(settings.logRange);
  for (let from = blocks.from; from <= blocks.to; ) {
    const to = from + range - 1n < blocks.to ? from + range - 1n : blocks.to;
    let logs;
    try {
      logs = [];
      for (let at = 0; at < addresses.length; at += ADDRESSES_PER_REQUEST) {
        if (signal.aborted) throw new Error(`reading ${chain} was stopped`);
        const recipients = addresses.slice(at, at + ADDRESSES_PER_REQUEST);
        logs.push(...(await rpc.call((client) => transferLogsTo(client, settings.token, recipients, from, to))));
      }
    } catch (error) {
      if (isRequestTooLarge(error) && to > from) {
        range = (to - from + 1n) / 2n; // half of what was refused (the range may have been cut at the day's end)
        continue;
      }
      throw error;
    }
    const blockTimes = new Map<bigint, Date>();
    for (const log of logs) {
      if (log.removed) continue;
      let at = blockTimes.get(log.blockNumber);
      if (!at) {
        const stamp = log.blockTimestamp ?? (await rpc.call((client) => client.getBlock({ blockNumber: log.blockNumber }))).timestamp;
        at = new Date(Number(stamp) * 1000);
        blockTimes.set(log.blockNumber, at);
      }
      yield transferRow({ transactionId: log.transactionHash, eventIndex: log.logIndex, to: getAddress(log.args.to), raw: log.args.value, rawPerCent, at });
    }
    from = to + 1n;
  }
}
