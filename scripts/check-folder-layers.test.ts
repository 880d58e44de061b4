import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const repository = path.resolve(import.meta.dirname, '..');
const script = path.join(repository, 'scripts', 'check-folder-layers.mjs');

/** The check as `npm run lint` runs it, on `root`: its exit code and output. */
async function check(root: string): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [script, '--root', root]);
    return { exitCode: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { exitCode: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run lint: the folders of lib/ import one way', () => {
  it("passes on the repository's own lib/, naming the allowed pairs", async () => {
    const run = await check(repository);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('channels <-> db');
  });

  describe('on a copy of lib/ with a probe added', () => {
    let copy: string;
    const probes: string[] = [];
    /** Writes one probe module into the copy (removed after the test). */
    const probe = (file: string, text: string) => {
      const full = path.join(copy, 'lib', file);
      writeFileSync(full, text);
      probes.push(full);
    };

    beforeAll(() => {
      copy = mkdtempSync(path.join(os.tmpdir(), 'folder-layers-'));
      // The source files are what is checked; the tests (which may import anything) are left out of the copy.
      cpSync(path.join(repository, 'lib'), path.join(copy, 'lib'), { recursive: true, filter: (source) => !/\.test\.tsx?$/.test(source) && !source.includes(`${path.sep}migrations`) });
    });
    afterEach(() => {
      for (const file of probes.splice(0)) rmSync(file, { force: true });
    });
    afterAll(() => rmSync(copy, { recursive: true, force: true }));

    it('passes as long as the probe imports downwards', async () => {
      probe('orders/probe-downwards.ts', "import { getDb } from '../db/client';\nexport const probe = getDb;\n");
      expect((await check(copy)).exitCode).toBe(0);
    });

    it('fails on a reverse import, naming the pair and the files on each side', async () => {
      probe('db/probe-reverse.ts', "import { lockMerchantOrderByAppId } from '../orders/find-merchant-order-by-app-id';\nexport const probe = lockMerchantOrderByAppId;\n");
      const run = await check(copy);
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toContain('lib/db and lib/orders import each other');
      expect(run.stderr).toContain('lib/db/probe-reverse.ts → lib/orders/find-merchant-order-by-app-id.ts');
      expect(run.stderr).toMatch(/lib\/orders\/\S+ → lib\/db\//);
    });

    it('counts a type-only import', async () => {
      probe('db/probe-type.ts', "import type { OrderStatus } from '../orders/order-status';\nexport type Probe = OrderStatus;\n");
      const run = await check(copy);
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toContain('lib/db/probe-type.ts → lib/orders/order-status.ts');
    });

    it("counts import('…') and an @/lib/… import", async () => {
      probe('jobs/probe-dynamic.ts', "export const probe = () => import('../workers/periodic-jobs');\n");
      probe('errors/probe-alias.ts', "export { formWords } from '@/lib/i18n/form-words';\n");
      const run = await check(copy);
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toContain('lib/jobs and lib/workers import each other');
      expect(run.stderr).toContain('lib/jobs/probe-dynamic.ts → lib/workers/periodic-jobs.ts');
      expect(run.stderr).toContain('lib/errors and lib/i18n import each other');
    });

    it('fails when an allowed pair is crossed through another file than the one it is allowed through', async () => {
      probe('db/probe-registry.ts', "import { CHANNELS } from '../channels';\nexport const probe = CHANNELS;\n");
      const run = await check(copy);
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toContain('lib/db may import lib/channels only through lib/channels/channel-names.ts');
      expect(run.stderr).toContain('lib/db/probe-registry.ts → lib/channels/index.ts');
    });

    it('leaves test files out', async () => {
      probe('db/probe-reverse.test.ts', "import { lockMerchantOrderByAppId } from '../orders/find-merchant-order-by-app-id';\nexport const probe = lockMerchantOrderByAppId;\n");
      expect((await check(copy)).exitCode).toBe(0);
    });
  });
});
