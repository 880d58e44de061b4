import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../lib/db/client';
import { ensureEmbeddedServer, type EmbeddedServerHandle } from '../lib/db/embedded-server';
import { applyMigrations } from '../lib/db/migrate';
import { merchants } from '../lib/db/schema';
import { parseSingleJsonObject, repositoryRoot, runAdmin } from '../lib/cli/run-admin-for-tests';

/**
 * The CLI without DATABASE_URL, on an embedded server of its own data dir: it must use the running service's server
 * (and leave it running), or start one for the command and stop it afterwards.
 * The dir is under ./.data, not /tmp: as root, PostgreSQL runs as the `postgres` user and must traverse its parents.
 */
const testDir = path.join(repositoryRoot, '.data', `cli-test-${randomBytes(4).toString('hex')}`);
const dataDir = path.join(testDir, 'pg');
const previousEmbeddedDir = process.env.EMBEDDED_PG_DIR;
let service: EmbeddedServerHandle | undefined;

/** The child's environment: no DATABASE_URL (the test file's own database), the test's data dir. */
function cliEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, EMBEDDED_PG_DIR: dataDir };
  delete env.DATABASE_URL;
  return env;
}

async function postmasterPid(): Promise<number | undefined> {
  try {
    return Number((await fs.readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  } catch {
    return undefined;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function merchantNamesOn(url: string): Promise<string[]> {
  const db = createDatabase(url, 1);
  try {
    return (await db.select({ name: merchants.name }).from(merchants)).map((row) => row.name);
  } finally {
    await db.$client.end();
  }
}

beforeAll(async () => {
  await fs.mkdir(testDir, { recursive: true, mode: 0o755 });
  process.env.EMBEDDED_PG_DIR = dataDir;
});

afterAll(async () => {
  if (service?.startedHere) await service.stop();
  if (previousEmbeddedDir === undefined) delete process.env.EMBEDDED_PG_DIR;
  else process.env.EMBEDDED_PG_DIR = previousEmbeddedDir;
  await fs.rm(testDir, { recursive: true, force: true });
});

describe('npm run admin on the embedded database', () => {
  it('uses the server the service is running, and leaves it running', async () => {
    service = await ensureEmbeddedServer({ owner: true }); // stands in for `npm run dev`
    expect(service.startedHere).toBe(true);
    await applyMigrations(service.databaseUrl);
    const servicePid = await postmasterPid();
    expect(servicePid).toBeDefined();

    const run = await runAdmin(['merchant', 'create', '--name', 'Made while the service runs', '--orders', 'on', '--json'], { env: cliEnv() });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('listening'); // found the running server, started none
    const created = parseSingleJsonObject(run.stdout);

    const db = createDatabase(service.databaseUrl, 1);
    try {
      const [row] = await db.select().from(merchants).where(eq(merchants.appId, created.appId as string));
      expect(row?.name).toBe('Made while the service runs');
      await db.$client.query('SELECT 1'); // the server is still up
    } finally {
      await db.$client.end();
    }
    expect(await postmasterPid()).toBe(servicePid);
    expect(processAlive(servicePid!)).toBe(true);
  });

  it('starts a server for the command when none runs, and stops it afterwards', async () => {
    const servicePid = await postmasterPid();
    await service!.stop();
    service = undefined;
    expect(await postmasterPid()).toBeUndefined();
    expect(processAlive(servicePid!)).toBe(false);

    const run = await runAdmin(['merchant', 'create', '--name', 'Made with no service', '--orders', 'off', '--json'], { env: cliEnv() });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain(`embedded postgres: listening`); // started a server of its own
    expect(parseSingleJsonObject(run.stdout)).toMatchObject({ name: 'Made with no service', orderPermission: false });

    expect(await postmasterPid()).toBeUndefined(); // shut down cleanly: PostgreSQL removes its pid file last

    // The work was done on this data dir: start it again and look.
    service = await ensureEmbeddedServer({ owner: true });
    expect(service.startedHere).toBe(true);
    expect((await merchantNamesOn(service.databaseUrl)).sort()).toEqual(['Made while the service runs', 'Made with no service']);
  });
});
