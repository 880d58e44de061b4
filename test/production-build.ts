import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { repositoryRoot } from '../lib/cli/run-admin-for-tests';
import { acquireCheckoutLock } from './checkout-lock';
import { runCommand } from './run-command';

/** What `next build` compiles: a change to any of these makes the build the tests start with `npm start` stale. */
const INPUT_DIRECTORIES = ['app', 'components', 'lib', 'i18n', 'messages', 'pages', 'public', 'sandbox', 'types'];
const BUILD_INPUTS = new RegExp(`^(${INPUT_DIRECTORIES.join('|')})/|^(next\\.config\\.mjs|postcss\\.config\\.mjs|tsconfig\\.json|package-lock\\.json)$`);
const STAMP = path.join(repositoryRoot, '.next', 'test-build-inputs.sha256');
const LOCK = path.join(repositoryRoot, '.next-build.lock');
/** A build on two cores shared with seven other test runs took eight minutes; past this something is wrong. */
const BUILD_TIMEOUT_MS = 15 * 60_000;

/** The files `next build` reads, by content (tests excluded: they are not built); from git where there is one. */
async function inputsFingerprint(): Promise<string> {
  let files: string[];
  try {
    files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repositoryRoot, encoding: 'utf8' }).split('\0');
  } catch {
    // Not a git checkout (a copied tree): the input directories' files, and the top-level ones.
    files = await fs.readdir(repositoryRoot);
    for (const directory of INPUT_DIRECTORIES) {
      const inside = await fs.readdir(path.join(repositoryRoot, directory), { recursive: true }).catch(() => []);
      files.push(...inside.map((file) => `${directory}/${file.split(path.sep).join('/')}`));
    }
  }
  const hash = createHash('sha256');
  for (const file of files.filter((name) => BUILD_INPUTS.test(name) && !/\.test\.tsx?$/.test(name)).sort()) {
    const content = await fs.readFile(path.join(repositoryRoot, file)).catch(() => undefined);
    if (content === undefined) continue; // deleted in the working tree, or a directory
    hash.update(`${file}\0${content.length}\0`).update(content);
  }
  return hash.digest('hex');
}

/**
 * The production build `npm start` serves (.next), built once for the sources as they are: a second test file, a
 * second run (CI's pass on the PostgreSQL server, in the same clone) or a second worker finds it and starts at once.
 */
export async function ensureProductionBuild(): Promise<void> {
  const wanted = await inputsFingerprint();
  const current = async () => (await fs.readFile(STAMP, 'utf8').catch(() => '')) === wanted && (await fs.stat(path.join(repositoryRoot, '.next', 'BUILD_ID')).then(() => true, () => false));
  if (await current()) return;
  const release = await acquireCheckoutLock(LOCK, BUILD_TIMEOUT_MS);
  try {
    if (await current()) return; // another worker built it meanwhile
    // The build is the same for every database and port: none of the run's settings go into it.
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' };
    for (const name of Object.keys(env)) if (name.startsWith('VITEST') || ['DATABASE_URL', 'PORT', 'PUBLIC_BASE_URL'].includes(name)) delete env[name];
    const started = performance.now();
    const build = await runCommand(process.execPath, [path.join(repositoryRoot, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], { cwd: repositoryRoot, env, timeoutMs: BUILD_TIMEOUT_MS });
    if (build.exitCode !== 0) throw new Error(`next build failed (exit ${build.exitCode}):\n${build.output.slice(-4000)}`);
    await fs.writeFile(STAMP, wanted);
    console.log(`production build: next build took ${Math.round((performance.now() - started) / 1000)} s`);
  } finally {
    await release();
  }
}
