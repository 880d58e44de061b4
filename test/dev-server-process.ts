import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { runCommand, type CommandRunResult } from './run-command';

/**
 * `npm run dev` as a terminal runs it: in a process group of its own, so that a test can send Ctrl-C's SIGINT to the
 * whole group (npm, tsx, the service, Next.js's workers) the way a terminal does.
 */
export interface DevServerProcess {
  port: number;
  output(): string;
  waitFor(text: string, timeoutMs: number): Promise<void>;
  /** The processes of the group now running, with their command lines (from /proc). */
  groupProcesses(): { pid: number; commandLine: string }[];
  /** SIGINT to the group; resolves with how long until no process of the group was left (or rejects after `timeoutMs`). */
  interrupt(timeoutMs: number): Promise<number>;
  kill(): void;
}

/** `count` distinct free ports (each held until all are found, so no two are the same). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => net.createServer());
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}

function processesOfGroup(pgid: number): { pid: number; commandLine: string }[] {
  const found: { pid: number; commandLine: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // stat: "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (group === pgid) found.push({ pid: Number(entry), commandLine: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ') });
    } catch {
      // the process ended while being read
    }
  }
  return found;
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs `npm run <script> -- <args>` in `cwd` with a newcomer's environment (no PORT, no PUBLIC_BASE_URL). */
export function runNpmScript(cwd: string, script: string, args: readonly string[]): Promise<CommandRunResult> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of ['DATABASE_URL', 'EMBEDDED_PG_DIR', 'NOTIFY_ALLOW_PRIVATE_NETWORKS', 'PUBLIC_BASE_URL', 'PORT', 'NODE_ENV']) delete env[name];
  for (const name of Object.keys(env)) if (name.startsWith('VITEST')) delete env[name];
  return runCommand('npm', ['run', '--silent', script, '--', ...args], { cwd, env: env as NodeJS.ProcessEnv, timeoutMs: 60_000 });
}

export function startDevServer(cwd: string, port: number, env: Record<string, string> = {}): DevServerProcess {
  const childEnv: Record<string, string | undefined> = { ...process.env, PORT: String(port), NEXT_TELEMETRY_DISABLED: '1', ...env };
  // The embedded database and the defaults, as a newcomer gets them (the suite's own settings stay out).
  for (const name of ['DATABASE_URL', 'EMBEDDED_PG_DIR', 'NOTIFY_ALLOW_PRIVATE_NETWORKS', 'PUBLIC_BASE_URL']) delete childEnv[name];
  delete childEnv.NODE_ENV;
  for (const name of Object.keys(childEnv)) if (name.startsWith('VITEST')) delete childEnv[name];
  const child = spawn('npm', ['run', 'dev'], { cwd, env: childEnv as NodeJS.ProcessEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const pgid = child.pid!;
  let text = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return {
    port,
    output: () => text,
    groupProcesses: () => processesOfGroup(pgid),
    async waitFor(expected, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!text.includes(expected)) {
        if (Date.now() > deadline || !groupAlive(pgid)) throw new Error(`no "${expected}" from npm run dev:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async interrupt(timeoutMs) {
      const started = Date.now();
      process.kill(-pgid, 'SIGINT');
      while (groupAlive(pgid)) {
        if (Date.now() - started > timeoutMs) throw new Error(`npm run dev still running ${timeoutMs} ms after Ctrl-C:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return Date.now() - started;
    },
    kill() {
      if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
    },
  };
}
