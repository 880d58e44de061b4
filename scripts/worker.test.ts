import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../lib/cli/run-admin-for-tests';

/**
 * `npm run worker` in production, as an operator starts it: the chain watcher refuses to start without a TronGrid
 * API key (or a self-hosted node said so), and says why.
 */
function startWorker(extra: Record<string, string>, until: RegExp | undefined): Promise<{ exitCode: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: process.env.DATABASE_URL, APP_ENCRYPTION_KEY: process.env.APP_ENCRYPTION_KEY, NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET, NODE_ENV: 'production', ...extra };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], { cwd: repositoryRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: string) => {
      output += chunk;
      // Stopped once started; a moment later, so that its SIGTERM handler is in place.
      if (until && until.test(output)) setTimeout(() => child.kill('SIGTERM'), 500);
    };
    child.stdout.setEncoding('utf8').on('data', collect);
    child.stderr.setEncoding('utf8').on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('error', reject);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, output });
    });
  });
}

describe('npm run worker in production', () => {
  it('refuses to start without TRONGRID_API_KEY, naming the setting and the self-hosted alternative', async () => {
    const run = await startWorker({}, undefined);
    expect(run.exitCode).not.toBe(0);
    expect(run.output).toContain('TRONGRID_API_KEY is required in production');
    expect(run.output).toContain('TRONGRID_SELF_HOSTED=true');
    expect(run.output).not.toContain('workers: notification delivery running');
  });

  it('starts with a key, says so, and never prints the key', async () => {
    const key = 'tg-secret-7d3e91';
    const run = await startWorker({ TRONGRID_API_KEY: key, TRONGRID_BASE_URLS: 'http://127.0.0.1:9' }, /workers: notification delivery running/);
    expect(run.output).toContain('chain: watching USDT');
    expect(run.output).toContain('with TRONGRID_API_KEY');
    expect(run.output).not.toContain(key);
  });

  it('starts without a key when TRONGRID_SELF_HOSTED=true names a node of its own', async () => {
    const run = await startWorker({ TRONGRID_SELF_HOSTED: 'true', TRONGRID_BASE_URLS: 'http://127.0.0.1:9' }, /workers: notification delivery running/);
    expect(run.output).toContain('via http://127.0.0.1:9, without an API key (TRONGRID_SELF_HOSTED=true)');
    expect(run.output).toContain('workers: notification delivery running');
  });
});
