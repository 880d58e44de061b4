import { spawn } from 'node:child_process';
import { repositoryRoot } from '../lib/cli/run-admin-for-tests';

/**
 * Runs an entry point (`scripts/worker.ts`, `scripts/serve.ts`, …) as an operator starts it, with the environment
 * given, and collects what it printed (stdout and stderr together). It is stopped once its output matches `until`, or
 * after `timeoutMs`.
 */
export function runScript(script: string, options: { env: NodeJS.ProcessEnv; until?: RegExp; timeoutMs?: number }): Promise<{ exitCode: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: repositoryRoot, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: string) => {
      output += chunk;
      if (options.until?.test(output)) child.kill('SIGKILL');
    };
    child.stdout.setEncoding('utf8').on('data', collect);
    child.stderr.setEncoding('utf8').on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 25_000);
    child.on('error', reject);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, output });
    });
  });
}
