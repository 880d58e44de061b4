import { describe, expect, it } from 'vitest';
import { evmRequestBudget } from '../evm/evm-request-budget';
import { evmSettings } from '../evm/evm-config';
import { describeRequestBudgets } from '../request-budgets';
import { chainConfig } from './chain-config';
import { budgetWarning, tronGridDailyQuota, tronRequestBudget } from './request-budget';

const production = (env: Record<string, string>) => ({ NODE_ENV: 'production', TRONGRID_API_KEY: 'k', ...env }) as NodeJS.ProcessEnv;

describe('request budgets', () => {
  it('TRON at the defaults: one request a poll, 28,800 a day, within TronGrid’s documented 100,000 and the 30,000 design figure', () => {
    const config = chainConfig(production({}));
    const budget = tronRequestBudget(config, tronGridDailyQuota(config, production({})));
    expect(budget).toMatchObject({ perDay: 28_800, quota: 100_000 });
    expect(budget.perDay).toBeLessThanOrEqual(30_000);
    expect(budgetWarning(budget)).toBeUndefined();
  });

  it('a poll longer than the 60 s one request covers asks again; probes count while an endpoint fails', () => {
    expect(tronRequestBudget({ pollMs: 120_000, endpointRetryMs: 60_000, baseUrls: ['a'] }, undefined).perDay).toBe(720 * 2);
    expect(tronRequestBudget({ pollMs: 3000, endpointRetryMs: 60_000, baseUrls: ['a', 'b'] }, undefined).worstPerDay).toBe(28_800 + 1440);
  });

  it('warns at start, naming the quota setting, when the settings cannot fit it', () => {
    const lines = describeRequestBudgets(production({ CHAIN_POLL_MS: '1000', TRONGRID_DAILY_QUOTA: '50000' }));
    expect(lines[0]).toMatch(/^WARNING: TRC20 watcher: these settings send about 86,400 requests a day .* more than TRONGRID_DAILY_QUOTA=50,000/);
    expect(describeRequestBudgets(production({}))[0]).toBe('usdt TRC20: about 28,800 requests a day (⌈86,400,000 / CHAIN_POLL_MS (3000)⌉ × ⌈CHAIN_POLL_MS / 60,000⌉ = 28,800), TRONGRID_DAILY_QUOTA=100,000');
    expect(() => tronGridDailyQuota({ baseUrls: [] }, { TRONGRID_DAILY_QUOTA: 'lots' } as unknown as NodeJS.ProcessEnv)).toThrow('TRONGRID_DAILY_QUOTA must be a whole number');
    expect(tronGridDailyQuota({ baseUrls: ['https://node.example'] }, {} as unknown as NodeJS.ProcessEnv)).toBeUndefined();
  });

  it('EVM networks at their default polls stay inside a free plan; BSC at 5 s would not fit its named quota', () => {
    const env = { USDT_EVM_CHAINS: 'ERC20,BEP20,POLYGON', EVM_ERC20_RPC_URLS: 'https://e.example', EVM_BEP20_RPC_URLS: 'https://b.example', EVM_POLYGON_RPC_URLS: 'https://p.example' };
    const budgets = evmSettings(env as unknown as NodeJS.ProcessEnv).chains.map((chain) => evmRequestBudget(chain));
    expect(budgets.map((budget) => [budget.network, budget.perDay])).toEqual([['ERC20', 17_955], ['BEP20', 23_040], ['POLYGON', 23_040]]);
    const fast = evmSettings({ ...env, EVM_BEP20_POLL_MS: '5000', EVM_BEP20_DAILY_QUOTA: '30000' } as unknown as NodeJS.ProcessEnv).chains[1]!;
    expect(budgetWarning(evmRequestBudget(fast))).toMatch(/^BEP20 watcher: these settings send about 69,120 requests a day .*EVM_BEP20_DAILY_QUOTA=30,000/);
  });
});
