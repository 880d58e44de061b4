import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

/** The machine's PostgreSQL binaries (Debian's postgresql-15, as on the CI runners). */
export const POSTGRES_BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';
const PROGRAMS = ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'];

/** Why the pair cannot be started here, or undefined when it can: the binaries are missing. */
export function standbyPairUnavailable(): string | undefined {
  const missing = PROGRAMS.filter((program) => !existsSync(path.join(POSTGRES_BIN, program)));
  return missing.length > 0 ? `PostgreSQL binaries not found in ${POSTGRES_BIN} (${missing.join(', ')}): set POSTGRES_BIN to run the failover test` : undefined;
}

export interface StandbyPair {
  primaryPort: number;
  standbyPort: number;
  /** libpq's multi-host URL on both, the primary first, as production lists them. */
  url: string;
  /** The primary's postmaster killed with SIGKILL: no shutdown, no last word to its sessions or its standby. */
  killPrimary(): void;
  /** pg_ctl promote on the standby, waiting until it accepts writes. */
  promoteStandby(): Promise<void>;
  /** Kills both servers and removes their directory; safe to call more than once, and after a failed start. */
  close(): Promise<void>;
}

/** Servers run as this user: PostgreSQL refuses to run as root, and the test runs as root in CI. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function run(program: string, args: string[], user: { uid: number; gid: number } | undefined, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(POSTGRES_BIN, program), args, { cwd, uid: user?.uid, gid: user?.gid, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${program} ${args.join(' ')} exited ${code}: ${output.slice(-2000)}`))));
  });
}

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (${last instanceof Error ? last.message : 'no answer'})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function onServer<T>(port: number, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A primary and its synchronous standby, as production runs them: streaming replication from a pg_basebackup -R,
 * and synchronous_standby_names = '*' with synchronous_commit = on, so a commit is answered only once the standby has
 * it on disk. Both listen on free loopback ports with trust authentication, in a directory of their own under /var/tmp.
 */
export async function startStandbyPair(): Promise<StandbyPair> {
  const user = serverUser();
  const dir = await mkdtemp('/var/tmp/failover-pair-');
  if (user) await chown(dir, user.uid, user.gid);
  const servers: ChildProcess[] = [];
  const killAll = () => servers.forEach((server) => server.exitCode === null && server.signalCode === null && server.kill('SIGKILL'));
  process.once('exit', killAll); // a test process that dies leaves no server behind
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    killAll();
    await Promise.all(servers.map((server) => (server.exitCode === null && server.signalCode === null ? new Promise((resolve) => server.once('exit', resolve)) : undefined)));
    process.removeListener('exit', killAll);
    // Backends of a postmaster killed with SIGKILL leave on their own, within moments; the directory goes after them.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await rm(dir, { recursive: true, force: true });
  };
  const startServer = (dataDir: string, port: number, settings: string[]) => {
    const server = spawn(
      path.join(POSTGRES_BIN, 'postgres'),
      ['-D', dataDir, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'shared_buffers=32MB', '-c', 'max_connections=60', ...settings.flatMap((setting) => ['-c', setting])],
      { cwd: dir, uid: user?.uid, gid: user?.gid, stdio: 'ignore' },
    );
    servers.push(server);
    return server;
  };
  try {
    const [primaryPort, standbyPort] = [await freePort(), await freePort()];
    const primaryDir = path.join(dir, 'primary');
    const standbyDir = path.join(dir, 'standby');
    await run('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync'], user, dir);
    // The replication settings are given on the command line, not in the data directory, so that the standby's copy
    // does not inherit synchronous_standby_names: once promoted it has no standby of its own to wait for.
    const primary = startServer(primaryDir, primaryPort, ['wal_level=replica', 'max_wal_senders=4', 'synchronous_standby_names=*', 'synchronous_commit=on']);
    await waitFor('the primary accepts connections', () => onServer(primaryPort, async () => true));
    await run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', standbyDir, '-R', '-X', 'stream'], user, dir);
    startServer(standbyDir, standbyPort, ['hot_standby=on', 'synchronous_standby_names=']);
    await waitFor('the standby streams synchronously', () =>
      onServer(primaryPort, async (client) => {
        const { rows } = await client.query<{ state: string; sync_state: string }>('SELECT state, sync_state FROM pg_stat_replication');
        return rows.some((row) => row.state === 'streaming' && row.sync_state === 'sync') ? true : undefined;
      }),
    );
    return {
      primaryPort,
      standbyPort,
      url: `postgres://postgres@127.0.0.1:${primaryPort},127.0.0.1:${standbyPort}/postgres?target_session_attrs=read-write`,
      killPrimary: () => void primary.kill('SIGKILL'),
      async promoteStandby() {
        await run('pg_ctl', ['promote', '-w', '-D', standbyDir], user, dir);
        await waitFor('the promoted standby accepts writes', () =>
          onServer(standbyPort, async (client) => ((await client.query<{ recovery: boolean }>('SELECT pg_is_in_recovery() AS recovery')).rows[0]!.recovery ? undefined : true)),
        );
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
