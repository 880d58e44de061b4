import { cliEntryPoint, repositoryRoot } from '../lib/cli/run-admin-for-tests';
import { runCommand } from './run-command';

const COMPILED_ENTRY_POINT = /^scripts\/(worker|migrate|serve)\.ts$/;

/**
 * Runs an entry point (`scripts/worker.ts`, `scripts/serve.ts`, …) as an operator starts it, with the environment
 * and arguments given, and collects what it printed (stdout and stderr together): the entry points compiled
 * (dist/cli), as their npm scripts run them; anything else through tsx. It is stopped once its output matches
 * `until`, or after `timeoutMs`.
 */
export async function runScript(
  script: string,
  options: { env: NodeJS.ProcessEnv; args?: readonly string[]; until?: RegExp; timeoutMs?: number },
): Promise<{ exitCode: number | null; output: string }> {
  const compiled = COMPILED_ENTRY_POINT.exec(script)?.[1] as 'worker' | 'migrate' | 'serve' | undefined;
  const { exitCode, output } = await runCommand(process.execPath, [...(compiled ? [cliEntryPoint(compiled)] : ['--import', 'tsx', script]), ...(options.args ?? [])], {
    cwd: repositoryRoot,
    env: options.env,
    until: options.until,
    timeoutMs: options.timeoutMs ?? 25_000,
  });
  return { exitCode, output };
}
