import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The production service a bench starts (detached, so that its whole process group can be stopped) and the commands
 * it runs before (the build): stopped when the bench exits, however it exits.
 */
let service: ChildProcess | undefined;

/** Stops the service's process group (SIGTERM) if it still runs. */
export function stopService(): void {
  if (service?.pid && service.exitCode === null) {
    try {
      process.kill(-service.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}
process.on('exit', stopService);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

/** Starts `node <script>` as the service, its stderr on the bench's; the one stopService stops. */
export function startServiceProcess(cwd: string, script: string, env: NodeJS.ProcessEnv): ChildProcess {
  service = spawn(process.execPath, [script], { cwd, env, detached: true, stdio: ['ignore', 'ignore', 2] });
  return service;
}

/** Runs a command to its end, its output on the bench's stderr; resolves its exit code. */
export function runToEnd(cwd: string, command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number | null> {
  const proc = spawn(command, args, { cwd, env, stdio: ['ignore', 2, 2] });
  return new Promise((resolve, reject) => {
    proc.on('error', reject);
    proc.on('exit', resolve);
  });
}
