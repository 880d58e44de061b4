import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePrivateClone } from '../../test/private-clone';
import { runCommand } from '../../test/run-command';

/**
 * `npm run db:migrate` (the embedded server's first start, as `npm run dev` and `npm test` do it) in a clone inside a
 * private directory, run by whoever runs the suite: as root, PostgreSQL runs as the `postgres` user, which cannot
 * enter that directory.
 */
let clone: Awaited<ReturnType<typeof makePrivateClone>>;

function migrate() {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  delete env.EMBEDDED_PG_DIR;
  return runCommand(path.join(clone.root, 'node_modules', '.bin', 'tsx'), ['scripts/migrate.ts'], { cwd: clone.root, env, timeoutMs: 100_000 });
}

const dataDir = () => path.join(clone.root, '.data', 'pg');

beforeAll(async () => {
  clone = await makePrivateClone();
  const parentMode = (await fs.stat(path.dirname(clone.root))).mode & 0o777;
  expect(parentMode).toBe(0o700);
});

afterAll(async () => {
  // The data may live outside the clone (linked from .data/pg): remove it there too.
  const realDataDir = await fs.realpath(dataDir()).catch(() => undefined);
  if (realDataDir) await fs.rm(realDataDir, { recursive: true, force: true });
  await clone?.remove();
});

describe('the embedded PostgreSQL in a clone inside a private directory', () => {
  it('initialises, starts and migrates, then stops with the command', { timeout: 120_000 }, async () => {
    const run = await migrate();
    expect(run.stderr).not.toMatch(/EACCES|\n\s+at /);
    expect(run.stdout).toContain('migrations applied (embedded PostgreSQL)');
    expect(run.exitCode).toBe(0);
    const pidFile = await fs.readFile(path.join(dataDir(), 'postmaster.pid'), 'utf8').catch(() => undefined);
    expect(pidFile).toBeUndefined(); // the command started the server, so it stopped it

    const again = await migrate(); // an existing data directory starts again
    expect(again.exitCode).toBe(0);
  });

  it('says in one line what went wrong when the server cannot start', { timeout: 120_000 }, async () => {
    await fs.appendFile(path.join(dataDir(), 'postgresql.conf'), '\nthis line is not a setting\n');
    const run = await migrate();
    expect(run.exitCode).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^embedded PostgreSQL: postgres stopped at start .*its log is /);
  });
});
