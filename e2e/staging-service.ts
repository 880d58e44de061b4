/**
 * The service the browser tests drive: a staging deployment of the production build (`npm run build`, then
 * `node dist/cli/serve.js` as `npm start` runs it), with the sandbox mounted (SANDBOX_ENABLED=true), every upstream
 * pointed at its sandbox explicitly (production never falls back to one), the first-run merchant seeded, and the
 * sandbox EVM nodes beside it: `npm run dev` starts those itself, a staging service is given its chains' settings;
 * and a mail server (e2e/mail-sink.ts) that the team invitations are e-mailed to.
 * Run by playwright.config.ts as its web server (tsx), which also gives it the staging accounts (e2e/staging-accounts.ts);
 * SIGTERM stops the service, then the nodes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { sandboxEvmPortsFrom } from '../sandbox/evm/dev-sandbox-evm';
import { startSandboxEvm } from '../sandbox/evm/sandbox-evm';
import { SANDBOX_EVM_CHAINS, type SandboxEvmChainName } from '../sandbox/evm/sandbox-evm-chains';
import { ensureProductionBuild } from '../test/production-build';
import { MAIL_DIR, startMailSink } from './mail-sink';
// @ts-expect-error: plain JavaScript without declarations (it runs before anything is compiled)
import { buildCli } from '../scripts/build-cli.mjs';

const log = (line: string) => process.stderr.write(`[staging] ${line}\n`);

/** The upstream settings of a staging service whose upstreams are its own sandbox, at the public URL. */
function sandboxUpstreams(baseUrl: string): Record<string, string> {
  return {
    SANDBOX_ENABLED: 'true',
    FIRST_RUN_SEED: 'true',
    ALLOW_HTTP_PUBLIC_BASE_URL: 'true',
    ALIPAY_GATEWAY_URL: `${baseUrl}/sandbox/alipay/gateway.do`,
    WECHAT_API_BASE_URL: `${baseUrl}/sandbox/wechat`,
    YHT_BASE_URL: `${baseUrl}/sandbox/yht`,
    TRONGRID_BASE_URLS: `${baseUrl}/sandbox/tron`,
  };
}

/**
 * The nodes' chains are new on every start: a cursor kept from an earlier run would read as a re-org below it. The
 * embedded database is the run's own (a fresh data dir); on a DATABASE_URL the cursors go.
 */
async function startFromFreshChains(): Promise<void> {
  if (process.env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query('DELETE FROM evm_chain_cursors').catch((error: { code?: string }) => {
        if (error.code !== '42P01') throw error; // not migrated yet: nothing to forget
      });
    } finally {
      await client.end();
    }
    return;
  }
  const dataDir = path.resolve(process.env.EMBEDDED_PG_DIR ?? '.data/e2e-pg');
  const realDir = await fs.realpath(dataDir).catch(() => undefined);
  if (realDir && realDir !== dataDir) await fs.rm(realDir, { recursive: true, force: true });
  await fs.rm(dataDir, { recursive: true, force: true });
}

const baseUrl = process.env.PUBLIC_BASE_URL;
if (!baseUrl) throw new Error('PUBLIC_BASE_URL is required (playwright.config.ts sets it)');
await Promise.all([ensureProductionBuild(), buildCli()]);
await startFromFreshChains();
const chainNames = Object.keys(SANDBOX_EVM_CHAINS) as SandboxEvmChainName[];
const nodes = await startSandboxEvm({ blockTimeSeconds: 1, ports: sandboxEvmPortsFrom(Number(process.env.SANDBOX_EVM_BASE_PORT ?? 8545)) });
log(`sandbox evm: ${chainNames.map((name) => `${name} ${nodes.node(name).rpcUrl}`).join(', ')}`);
// Team invitations are e-mailed, as where an operator configured SMTP_URL: to the sink the specs read (e2e/mail-sink.ts).
const mail = await startMailSink();
log(`mail sink: ${mail.settings.SMTP_URL} (${MAIL_DIR})`);

// serve.js sets NODE_ENV itself (production); the test run's own is not the service's.
const { NODE_ENV: _testRunMode, ...runEnv } = process.env;
const service = spawn(process.execPath, ['dist/cli/serve.js'], { env: { ...runEnv, ...sandboxUpstreams(baseUrl), ...nodes.serviceSettings(), ...mail.settings } as NodeJS.ProcessEnv, stdio: ['ignore', 'inherit', 'inherit'] });
const exited = new Promise<number>((resolve) => service.on('exit', (code: number | null, signal: NodeJS.Signals | null) => resolve(code ?? (signal ? 1 : 0))));
let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    service.kill('SIGTERM');
  });
}
const code = await exited;
await nodes.close();
await mail.close();
process.exit(stopping ? 0 : code || 1);
