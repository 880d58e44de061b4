import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Test support: runs the admin CLI in a child process, as an operator would, and collects what it printed. */

export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The compiled entry point `npm run <name>` starts (dist/cli, built by scripts/build-cli.mjs; the test suite's global
 * setup builds it from the current sources).
 */
export function cliEntryPoint(name: 'admin' | 'sandbox' | 'worker' | 'migrate' | 'serve'): string {
  return path.join(repositoryRoot, 'dist', 'cli', `${name}.js`);
}

export interface AdminRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export function runAdmin(args: readonly string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<AdminRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliEntryPoint('admin'), ...args], {
      cwd: repositoryRoot,
      env: options.env ?? { ...process.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 25_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stdout, stderr });
    });
  });
}

/** With --json, stdout must be exactly one JSON object and nothing else. */
export function parseSingleJsonObject(stdout: string): Record<string, unknown> {
  const text = stdout.trim();
  if (text.split('\n').length !== 1) throw new Error(`expected one line of JSON on stdout, got:\n${stdout}`);
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`expected a JSON object, got: ${text}`);
  return parsed as Record<string, unknown>;
}

/** Runs a command with --json and returns its object; fails with the child's stderr unless it exited 0. */
export async function runAdminJson(args: readonly string[], options?: { env?: NodeJS.ProcessEnv }): Promise<Record<string, unknown>> {
  const run = await runAdmin([...args, '--json'], options);
  if (run.exitCode !== 0) throw new Error(`admin ${args.join(' ')} exited ${run.exitCode}:\n${run.stderr}`);
  return parseSingleJsonObject(run.stdout);
}
