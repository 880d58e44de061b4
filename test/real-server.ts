import { spawn } from 'node:child_process';
import path from 'node:path';
import { repositoryRoot } from '../lib/cli/run-admin-for-tests';
import { acquireCheckoutLock } from './checkout-lock';
import { freePort } from './dev-server-process';
import { loopbackServiceEnv } from './loopback-service-env';
import { ensureProductionBuild } from './production-build';

export type ServerMode = 'production' | 'development';

/** How an operator starts each: `npm start` on a production build, `npm run dev`. */
export const SERVER_COMMANDS: Record<ServerMode, string> = { production: 'npm start', development: 'npm run dev' };

export interface RealServer {
  mode: ServerMode;
  baseUrl: string;
  output(): string;
  stop(): Promise<void>;
}

/** Held while a test's `npm run dev` runs in this checkout; a turn waits at most this long for the one before. */
const DEVELOPMENT_SERVER_LOCK = path.join(repositoryRoot, '.next-dev-server.lock');
const DEVELOPMENT_SERVER_WAIT_MS = 10 * 60_000;

/** Starting `npm run dev` compiles the first page on demand: on two busy cores that has taken over a minute. */
const START_TIMEOUT_MS = 240_000;

const groupAlive = (pgid: number) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The service as an operator runs it (`npm start` after `npm run build`, or `npm run dev`), on the test file's database
 * and a free loopback port, with `env` added (the upstreams' URLs, say). It is ready once its home page answers: that
 * first page request is also where Next.js sets up its own handling of the server's connections.
 */
export async function startRealServer(mode: ServerMode, env: Record<string, string> = {}): Promise<RealServer> {
  if (mode === 'production') await ensureProductionBuild();
  // Next.js runs one development server per checkout and refuses a second: test files (and a second run beside this
  // one, CI's other database) take turns.
  const release = mode === 'development' ? await acquireCheckoutLock(DEVELOPMENT_SERVER_LOCK, DEVELOPMENT_SERVER_WAIT_MS) : async () => undefined;
  const { baseUrl, env: loopbackEnv } = loopbackServiceEnv(await freePort());
  // The development sandbox's EVM nodes would need ports of their own.
  const childEnv: Record<string, string | undefined> = { ...loopbackEnv, SANDBOX_EVM: 'off', ...env };
  const [program, ...args] = SERVER_COMMANDS[mode].split(' ');
  // Its own process group: npm, tsx, the service and Next.js's workers stop together.
  const child = spawn(program!, args, { cwd: repositoryRoot, env: childEnv as NodeJS.ProcessEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const pgid = child.pid!;
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const server: RealServer = {
    mode,
    baseUrl,
    output: () => output,
    async stop() {
      if (groupAlive(pgid)) {
        process.kill(-pgid, 'SIGTERM');
        const deadline = Date.now() + 20_000;
        while (groupAlive(pgid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
        if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
      }
      await release();
    },
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const status = await fetch(`${baseUrl}/`, { signal: AbortSignal.timeout(60_000) }).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return server;
    if (!groupAlive(pgid) || Date.now() > deadline) {
      await server.stop();
      throw new Error(`${SERVER_COMMANDS[mode]} did not answer GET / (last status ${status}):\n${output.slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
