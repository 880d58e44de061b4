import { envSetting } from '../../../config/env-setting';
import { ChainNotConfigured, type ChainConfig } from './chain-config';
import { BLOCKS_PER_REQUEST, TRON_BLOCK_MS } from './watch-chain';
import type { RequestBudget } from '../../request-budget';

export type { RequestBudget } from '../../request-budget';

const DAY_MS = 24 * 60 * 60 * 1000;
/** TronGrid's documented daily total per account (developers.tron.network, "Rate Limits"). */
export const TRONGRID_DOCUMENTED_DAILY_QUOTA = 100_000;


/**
 * The TRON watcher's requests a day: one `/walletsolidity/getblockbylimitnext` per poll, covering up to 20 blocks
 * (60 s of chain); a poll that finds more new blocks than that asks again:
 *   R = ⌈86,400,000 / CHAIN_POLL_MS⌉ × ⌈CHAIN_POLL_MS / 60,000⌉  (+ (endpoints − 1) × ⌈86,400,000 / CHAIN_ENDPOINT_RETRY_MS⌉ probes)
 * The chain's traffic does not appear: a block is one request's share however many transfers it holds.
 */
export function tronRequestBudget(config: Pick<ChainConfig, 'pollMs' | 'endpointRetryMs' | 'baseUrls'>, quota: number | undefined): RequestBudget {
  const polls = Math.ceil(DAY_MS / config.pollMs);
  const perPoll = Math.ceil(config.pollMs / (TRON_BLOCK_MS * BLOCKS_PER_REQUEST));
  const perDay = polls * perPoll;
  const probes = config.endpointRetryMs > 0 ? (config.baseUrls.length - 1) * Math.ceil(DAY_MS / config.endpointRetryMs) : 0;
  return {
    network: 'TRC20',
    perDay,
    worstPerDay: perDay + probes,
    quota,
    quotaSetting: 'TRONGRID_DAILY_QUOTA',
    formula: `⌈86,400,000 / CHAIN_POLL_MS (${config.pollMs})⌉ × ⌈CHAIN_POLL_MS / 60,000⌉ = ${perDay.toLocaleString('en')}`,
  };
}

const isTronGrid = (url: string) => /(^|\.)trongrid\.io$/i.test(new URL(url).hostname);

/**
 * TRONGRID_DAILY_QUOTA: the requests a day the TronGrid account allows (shared by every key of the account). Default
 * TronGrid's documented 100,000 when an endpoint is TronGrid; none (no check) for nodes of one's own unless set.
 */
export function tronGridDailyQuota(config: Pick<ChainConfig, 'baseUrls'>, env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = envSetting(env, 'TRONGRID_DAILY_QUOTA');
  if (raw === undefined) return config.baseUrls.some(isTronGrid) ? TRONGRID_DOCUMENTED_DAILY_QUOTA : undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new ChainNotConfigured(`TRONGRID_DAILY_QUOTA must be a whole number of requests a day, at least 1 (got ${raw})`);
  return Number(raw);
}

/** The warning when the settings cannot fit the quota, or undefined when they do (or there is no quota). */
export function budgetWarning(budget: RequestBudget): string | undefined {
  if (budget.quota === undefined || budget.perDay <= budget.quota) return undefined;
  return (
    `${budget.network} watcher: these settings send about ${budget.perDay.toLocaleString('en')} requests a day (${budget.formula}), ` +
    `more than ${budget.quotaSetting}=${budget.quota.toLocaleString('en')}: past the quota the provider answers only a request or so a second, ` +
    'and payments are seen late. Raise the poll interval or the quota.'
  );
}
