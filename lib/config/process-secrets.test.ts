import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDatabase, getDb } from '../db/client';
import { merchants, upstreamCredentials } from '../db/schema';
import { recordServiceSandboxMode } from '../sandbox/database-sandbox-mode';
import { runAdmin } from '../cli/run-admin-for-tests';
import { runScript } from '../../test/run-script';
import { embeddedSecretsFile, ensureProcessSecrets } from './process-secrets';

/** A process as an operator starts it on a PostgreSQL server: this file's database, no NODE_ENV, secrets as given. */
function productionEnv(secrets: { APP_ENCRYPTION_KEY?: string; NEXTAUTH_SECRET?: string; NODE_ENV?: 'development' }): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['NODE_ENV', 'APP_ENCRYPTION_KEY', 'NEXTAUTH_SECRET', 'AUTH_SECRET', 'SANDBOX_ENABLED', 'VITEST', 'VITEST_WORKER_ID']) delete env[name];
  return { ...env, ...secrets };
}

async function merchantCount(): Promise<number> {
  const db = createDatabase(process.env.DATABASE_URL!, 1);
  try {
    return (await db.select().from(merchants)).length;
  } finally {
    await db.$client.end();
  }
}

const keyA = randomBytes(32).toString('hex');
const keyB = randomBytes(32).toString('hex');
const session = randomBytes(32).toString('base64url');

describe('secrets on a DATABASE_URL (every entry point)', () => {
  it('the admin CLI refuses to store anything without APP_ENCRYPTION_KEY or NEXTAUTH_SECRET, naming the setting', async () => {
    const before = await merchantCount();
    const noKey = await runAdmin(['merchant', 'create', '--name', 'Shop', '--orders', 'on'], { env: productionEnv({ NEXTAUTH_SECRET: session }) });
    expect(noKey.exitCode).not.toBe(0);
    expect(noKey.stderr).toMatch(/APP_ENCRYPTION_KEY: is required with DATABASE_URL/);
    const noSession = await runAdmin(['merchant', 'create', '--name', 'Shop', '--orders', 'on'], { env: productionEnv({ APP_ENCRYPTION_KEY: keyA }) });
    expect(noSession.exitCode).not.toBe(0);
    expect(noSession.stderr).toMatch(/NEXTAUTH_SECRET: is required with DATABASE_URL/);
    const shortKey = await runAdmin(['merchant', 'create', '--name', 'Shop', '--orders', 'on'], { env: productionEnv({ APP_ENCRYPTION_KEY: 'abc', NEXTAUTH_SECRET: session }) });
    expect(shortKey.stderr).toMatch(/APP_ENCRYPTION_KEY: must be 32 bytes/);
    expect(await merchantCount()).toBe(before);
  });

  it('the worker and the migrations refuse too', async () => {
    for (const script of ['scripts/worker.ts', 'scripts/migrate.ts']) {
      const run = await runScript(script, { env: productionEnv({ NEXTAUTH_SECRET: session }) });
      expect(run.exitCode, script).not.toBe(0);
      expect(run.output, script).toMatch(/APP_ENCRYPTION_KEY: is required with DATABASE_URL/);
    }
  });

  it('a key that is not the database key is refused at start (key check value), whatever the command', async () => {
    const created = await runAdmin(['merchant', 'create', '--name', 'Keyed shop', '--orders', 'on', '--json'], { env: productionEnv({ APP_ENCRYPTION_KEY: keyA, NEXTAUTH_SECRET: session }) });
    expect(created.exitCode, created.stderr).toBe(0);
    const before = await merchantCount();
    const wrong = await runAdmin(['limit', 'show'], { env: productionEnv({ APP_ENCRYPTION_KEY: keyB, NEXTAUTH_SECRET: session }) });
    expect(wrong.exitCode).not.toBe(0);
    expect(wrong.stderr).toMatch(/APP_ENCRYPTION_KEY: cannot decrypt the secrets stored in this database/);
    const worker = await runScript('scripts/worker.ts', { env: productionEnv({ APP_ENCRYPTION_KEY: keyB, NEXTAUTH_SECRET: session }) });
    expect(worker.exitCode).not.toBe(0);
    expect(worker.output).toMatch(/APP_ENCRYPTION_KEY: cannot decrypt/);
    expect(await merchantCount()).toBe(before);
    const right = await runAdmin(['limit', 'show'], { env: productionEnv({ APP_ENCRYPTION_KEY: keyA, NEXTAUTH_SECRET: session }) });
    expect(right.exitCode, right.stderr).toBe(0);
  });

  it('sandbox credentials cannot be added to a database whose service runs with the sandbox off, whatever the CLI believes', async () => {
    await recordServiceSandboxMode(getDb()); // as the service does at start: here (a test) the sandbox is on
    const development = productionEnv({ APP_ENCRYPTION_KEY: keyA, NEXTAUTH_SECRET: session, NODE_ENV: 'development' });
    const merchant = await runAdmin(['merchant', 'create', '--name', 'Mode shop', '--orders', 'on', '--json'], { env: development });
    const appId = String(JSON.parse(merchant.stdout).appId);
    const previous = process.env.SANDBOX_ENABLED;
    process.env.SANDBOX_ENABLED = 'false'; // the production service starts: the sandbox is off
    try {
      await recordServiceSandboxMode(getDb());
    } finally {
      if (previous === undefined) delete process.env.SANDBOX_ENABLED;
      else process.env.SANDBOX_ENABLED = previous;
    }
    const refused = await runAdmin(['credential', 'add', '--app-id', appId, '--channel', 'ALIPAY', '--sandbox'], { env: development });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/this database is not in sandbox mode/);
    const credentials = await getDb().select().from(upstreamCredentials);
    expect(credentials).toEqual([]);
  });

  it('sandbox credentials cannot be added to a production database', async () => {
    const env = productionEnv({ APP_ENCRYPTION_KEY: keyA, NEXTAUTH_SECRET: session });
    const refused = await runAdmin(['credential', 'add', '--app-id', 'mch_any', '--channel', 'ALIPAY', '--sandbox'], { env });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/the sandbox is off here/);
  });
});

describe('secrets on the embedded database', () => {
  it('are random per data directory, kept beside it (0600), and the same for every process on it', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'secrets-'));
    try {
      const first = {} as NodeJS.ProcessEnv;
      const again = {} as NodeJS.ProcessEnv;
      const other = {} as NodeJS.ProcessEnv;
      await ensureProcessSecrets({ embeddedDataDir: path.join(root, 'pg') }, first);
      await ensureProcessSecrets({ embeddedDataDir: path.join(root, 'pg') }, again);
      await ensureProcessSecrets({ embeddedDataDir: path.join(root, 'other') }, other);
      expect(first.APP_ENCRYPTION_KEY).toMatch(/^[0-9a-f]{64}$/);
      expect(first.NEXTAUTH_SECRET!.length).toBeGreaterThanOrEqual(32);
      expect(again).toEqual(first);
      expect(other.APP_ENCRYPTION_KEY).not.toBe(first.APP_ENCRYPTION_KEY);
      expect(other.NEXTAUTH_SECRET).not.toBe(first.NEXTAUTH_SECRET);
      const stat = await fs.stat(embeddedSecretsFile(path.join(root, 'pg')));
      expect(stat.mode & 0o777).toBe(0o600);
      // A configured value wins over the directory's.
      const configured = { APP_ENCRYPTION_KEY: keyA } as unknown as NodeJS.ProcessEnv;
      await ensureProcessSecrets({ embeddedDataDir: path.join(root, 'pg') }, configured);
      expect(configured).toEqual({ APP_ENCRYPTION_KEY: keyA, NEXTAUTH_SECRET: first.NEXTAUTH_SECRET });
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
