import { spawn } from 'node:child_process';
import { cliEntryPoint, repositoryRoot } from '../lib/cli/run-admin-for-tests';

/** Runs `npm run sandbox -- …` (the compiled scripts/sandbox.ts) as a person would, next to the test's service. */
export function runSandbox(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliEntryPoint('sandbox'), ...args], { cwd: repositoryRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('error', reject);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stdout, stderr });
    });
  });
}
