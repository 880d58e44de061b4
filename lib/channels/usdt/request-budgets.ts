import { chainConfig } from './chain/chain-config';
import { budgetWarning, tronGridDailyQuota, tronRequestBudget, type RequestBudget } from './chain/request-budget';
import { evmRequestBudget } from './evm/evm-request-budget';
import { evmSettings } from './evm/evm-config';

/** Each watched network's requests a day at the current settings, with its quota when one is configured. */
export function usdtRequestBudgets(env: NodeJS.ProcessEnv = process.env): RequestBudget[] {
  const tron = chainConfig(env);
  return [tronRequestBudget(tron, tronGridDailyQuota(tron, env)), ...evmSettings(env).chains.map((chain) => evmRequestBudget(chain))];
}

/** The start-up lines: each network's requests a day against its quota, and a WARNING line for each that cannot fit. */
export function describeRequestBudgets(env: NodeJS.ProcessEnv = process.env): string[] {
  return usdtRequestBudgets(env).map((budget) => {
    const warning = budgetWarning(budget);
    if (warning) return `WARNING: ${warning}`;
    const quota = budget.quota === undefined ? 'no quota configured' : `${budget.quotaSetting}=${budget.quota.toLocaleString('en')}`;
    return `usdt ${budget.network}: about ${budget.perDay.toLocaleString('en')} requests a day (${budget.formula}), ${quota}`;
  });
}
