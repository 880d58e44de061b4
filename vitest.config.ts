import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['lib/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/isolated-database.ts'],
    pool: 'forks',
    // Receivers in tests listen on loopback; the guard itself is tested by switching this off.
    env: { NOTIFY_ALLOW_PRIVATE_NETWORKS: 'true' },
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
