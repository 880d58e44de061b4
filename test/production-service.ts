import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repositoryRoot } from '../lib/cli/run-admin-for-tests';
import { freePort } from './dev-server-process';
import { loopbackServiceEnv } from './loopback-service-env';

/** One production build for every test that starts one (a fingerprint of its inputs, one builder at a time). */
export { ensureProductionBuild } from './production-build';

export interface ProductionService {
  baseUrl: string;
  /** Every line the process wrote so far, each with the stream it came on. */
  lines(): { stream: 'stdout' | 'stderr'; text: string }[];
  /** Resolves once a line matching `pattern` was written (rejects after `timeoutMs`, or when the process ended). */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGTERM, as a supervisor stops it; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** The web unit's command in the operations guide (docs/operations.md), which is what a test of production runs. */
export function documentedWebCommand(): string[] {
  const guide = readFileSync(path.join(repositoryRoot, 'docs', 'operations.md'), 'utf8');
  const unit = guide.slice(guide.indexOf('payments-web.service'));
  const command = /^ExecStart=(.+)$/m.exec(unit)?.[1];
  if (!command) throw new Error('docs/operations.md: no ExecStart in the payments-web unit');
  return command.trim().split(/\s+/);
}

/**
 * The web process as the operations guide starts it (the command of its systemd unit: `node dist/cli/serve.js`), in
 * production on this test file's database, with the settings a web node has (WORKERS=off) and an http public URL on
 * loopback. The build must exist (ensureProductionBuild).
 */
export async function startProductionService(env: Record<string, string | undefined> = {}): Promise<ProductionService> {
  const { baseUrl, env: childEnv } = loopbackServiceEnv(await freePort());
  // Production's own defaults: no sandbox, no private notification targets, no test-run settings.
  for (const name of ['NOTIFY_ALLOW_PRIVATE_NETWORKS', 'SANDBOX_ENABLED', 'LOG_FORMAT', 'LOG_LEVEL', 'YHT_BASE_URL', 'YHT_MERCHANT_NO', 'YHT_KEY']) delete childEnv[name];
  Object.assign(childEnv, env);
  const [program, ...args] = documentedWebCommand();
  // The guide's node is /usr/bin/node; the test runs the same program with the node running the tests.
  if (!program!.endsWith('/node')) throw new Error(`the documented web command runs ${program}, not node: its output would not be the service's alone`);
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: repositoryRoot,
    env: childEnv as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: { stream: 'stdout' | 'stderr'; text: string }[] = [];
  let exited: number | null | undefined;
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve((exited = code))));
  for (const stream of ['stdout', 'stderr'] as const) {
    let partial = '';
    child[stream]!.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop()!;
      for (const text of parts) lines.push({ stream, text });
    });
    child[stream]!.on('end', () => {
      if (partial !== '') lines.push({ stream, text: partial });
      partial = '';
    });
  }
  const service: ProductionService = {
    baseUrl,
    lines: () => [...lines],
    async waitForLine(pattern, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = lines.find((line) => pattern.test(line.text));
        if (found) return found.text;
        if (exited !== undefined || Date.now() > deadline) {
          throw new Error(`no line matching ${pattern} from the production service (${exited === undefined ? 'running' : `exit ${exited}`}):\n${lines.map((line) => line.text).join('\n')}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      if (exited === undefined) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const code = await exit;
      clearTimeout(timer);
      return code;
    },
  };
  await service.waitForLine(/ready: http:\/\//, 90_000);
  return service;
}
