import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['lib/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
    // A newcomer's `npm run dev` in a fresh clone always runs on the embedded database (the test clears DATABASE_URL):
    // on a run against a PostgreSQL server it would only repeat, for two minutes, what the embedded run proves.
    exclude: process.env.DATABASE_URL ? [...configDefaults.exclude, 'scripts/dev-server.test.ts'] : configDefaults.exclude,
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
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
