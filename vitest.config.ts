import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { DATABASE_FREE_FILES } from './test/database-free-files';
import { SlowFilesFirst } from './test/slow-files-first';

const TEST_FILES = ['lib/**/*.test.ts', 'examples/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts', 'ops/**/*.test.ts'];

/**
 * The test that needs the machine to itself: the fresh-clone `npm run dev` test counts Fast Refresh rebuilds, and a
 * second file running beside it (other processes, other compiles) makes one more. It runs first, alone.
 */
const MACHINE_ALONE = ['scripts/dev-server.test.ts'];

/**
 * The files that start `npm run dev` in this checkout (the Java example against it, the CLI next to it): Next.js runs
 * one development server per directory and refuses a second. They run last, one at a time.
 */
const ONE_DEV_SERVER = ['examples/examples-development.test.ts', 'scripts/reconcile-dev.test.ts'];

/**
 * A newcomer's `npm run dev` in a fresh clone always runs on the embedded database (the test clears DATABASE_URL):
 * on a run against a PostgreSQL server it would only repeat, for two minutes, what the embedded run proves. So would
 * the merchants' examples: programs in five languages talking HTTP to the service, whose answers the database under
 * it does not change (every HTTP test of those answers runs on both). And the files that never use the database
 * (test/database-free-files.ts, checked on every run).
 */
const SKIPPED_ON_A_SERVER = process.env.DATABASE_URL ? ['scripts/dev-server.test.ts', 'examples/examples.test.ts', 'examples/examples-development.test.ts', ...DATABASE_FREE_FILES] : [];

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/isolated-database.ts'],
    pool: 'forks',
    // Receivers in tests listen on loopback; the guard itself is tested by switching this off.
    // Every process needs its secrets; a test run has its own (its databases and data dirs are its own too).
    env: {
      NOTIFY_ALLOW_PRIVATE_NETWORKS: 'true',
      APP_ENCRYPTION_KEY: process.env.APP_ENCRYPTION_KEY ?? randomBytes(32).toString('hex'),
      NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? randomBytes(32).toString('base64url'),
    },
    sequence: { sequencer: SlowFilesFirst },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    passWithNoTests: true,
    // Each test file has its own database, so files run side by side, a file per core; before them the one that needs
    // the machine to itself, after them the ones that start a development server here, one at a time. (A project's
    // include and exclude would add to the root's: they are set here only.)
    projects: [
      {
        extends: true,
        test: { name: 'machine-alone', include: MACHINE_ALONE, exclude: [...configDefaults.exclude, ...SKIPPED_ON_A_SERVER], fileParallelism: false, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: {
          name: 'side-by-side',
          include: TEST_FILES,
          exclude: [...configDefaults.exclude, ...SKIPPED_ON_A_SERVER, ...MACHINE_ALONE, ...ONE_DEV_SERVER],
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: { name: 'one-dev-server', include: ONE_DEV_SERVER, exclude: [...configDefaults.exclude, ...SKIPPED_ON_A_SERVER], fileParallelism: false, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
