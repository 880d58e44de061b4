import { spawn } from 'node:child_process';

export interface CommandRunResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved as they arrived. */
  output: string;
}

/**
 * Runs a program as a person would from a terminal in `cwd`, and collects what it printed. It is killed once its output
 * matches `until`, or after `timeoutMs`.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; until?: RegExp },
): Promise<CommandRunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let output = '';
    const collect = (into: 'stdout' | 'stderr') => (chunk: string) => {
      if (into === 'stdout') stdout += chunk;
      else stderr += chunk;
      output += chunk;
      if (options.until?.test(output)) child.kill('SIGKILL');
    };
    child.stdout.setEncoding('utf8').on('data', collect('stdout'));
    child.stderr.setEncoding('utf8').on('data', collect('stderr'));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stdout, stderr, output });
    });
  });
}
