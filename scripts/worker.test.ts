import { describe, expect, it } from 'vitest';
import { runScript } from '../test/run-script';
import { linesNotLogEntries } from '../test/log-lines';

/**
 * `npm run worker` in production, as an operator starts it: the chain watcher refuses to start without a TronGrid
 * API key (or a self-hosted node said so), and says why.
 */
function startWorker(extra: Record<string, string>, until: RegExp | undefined) {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: process.env.DATABASE_URL, APP_ENCRYPTION_KEY: process.env.APP_ENCRYPTION_KEY, NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET, NODE_ENV: 'production', ...extra };
  return runScript('scripts/worker.ts', { env, until });
}

describe('npm run worker in production', () => {
  it('refuses to start without TRONGRID_API_KEY, naming the setting and the self-hosted alternative', async () => {
    const run = await startWorker({}, undefined);
    expect(run.exitCode).not.toBe(0);
    expect(run.output).toContain('TRONGRID_API_KEY is required in production');
    expect(run.output).toContain('TRONGRID_SELF_HOSTED=true');
    expect(run.output).not.toContain('workers: notification delivery running');
    expect(linesNotLogEntries(run.output)).toEqual([]); // the refusal too is a JSON log line
  });

  it('starts with a key, says so, and never prints the key', async () => {
    const key = 'tg-secret-7d3e91';
    const run = await startWorker({ TRONGRID_API_KEY: key, TRONGRID_BASE_URLS: 'http://127.0.0.1:9' }, /workers: notification delivery running/);
    expect(run.output).toContain('chain: watching USDT');
    expect(run.output).toContain('with TRONGRID_API_KEY');
    expect(run.output).not.toContain(key);
    expect(linesNotLogEntries(run.output)).toEqual([]);
  });

  it('starts without a key when TRONGRID_SELF_HOSTED=true names a node of its own', async () => {
    const run = await startWorker({ TRONGRID_SELF_HOSTED: 'true', TRONGRID_BASE_URLS: 'http://127.0.0.1:9' }, /workers: notification delivery running/);
    expect(run.output).toContain('via http://127.0.0.1:9, without an API key (TRONGRID_SELF_HOSTED=true)');
    expect(run.output).toContain('workers: notification delivery running');
  });

  it('refuses to start when USDT_EVM_CHAINS enables a chain without its EVM_<CHAIN>_RPC_URLS, naming the setting', async () => {
    const run = await startWorker({ TRONGRID_SELF_HOSTED: 'true', TRONGRID_BASE_URLS: 'http://127.0.0.1:9', USDT_EVM_CHAINS: 'ERC20,BEP20', EVM_ERC20_RPC_URLS: 'http://127.0.0.1:9' }, undefined);
    expect(run.exitCode).not.toBe(0);
    expect(run.output).toContain('EVM_BEP20_RPC_URLS');
    expect(run.output).not.toContain('workers: notification delivery running');
  });

  it('names the EVM chains it watches at start', async () => {
    const run = await startWorker(
      { TRONGRID_SELF_HOSTED: 'true', TRONGRID_BASE_URLS: 'http://127.0.0.1:9', USDT_EVM_CHAINS: 'POLYGON', EVM_POLYGON_RPC_URLS: 'http://127.0.0.1:9,http://127.0.0.1:10' },
      /workers: notification delivery running/,
    );
    expect(run.output).toContain('usdt evm: watching POLYGON (chain id 137, 2 endpoint(s), finalized tag)');
    expect(run.output).toContain('usdt-evm-watcher');
  });
});
