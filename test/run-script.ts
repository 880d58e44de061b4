import { repositoryRoot } from '../lib/cli/run-admin-for-tests';
import { runCommand } from './run-command';

/**
 * Runs an entry point (`scripts/worker.ts`, `scripts/serve.ts`, …) as an operator starts it, with the environment
 * given, and collects what it printed (stdout and stderr together). It is stopped once its output matches `until`, or
 * after `timeoutMs`.
 */
export async function runScript(script: string, options: { env: NodeJS.ProcessEnv; until?: RegExp; timeoutMs?: number }): Promise<{ exitCode: number | null; output: string }> {
  const { exitCode, output } = await runCommand(process.execPath, ['--import', 'tsx', script], {
    cwd: repositoryRoot,
    env: options.env,
    until: options.until,
    timeoutMs: options.timeoutMs ?? 25_000,
  });
  return { exitCode, output };
}
