import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openSync, closeSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { EmbeddedServerError } from './embedded-server-error';
import type { EmbeddedPlacement } from './embedded-placement';

/** Runs the embedded PostgreSQL's own programs: initdb once, then the server, as the placement's user. */

const INIT_TIMEOUT_MS = 120_000;
const START_TIMEOUT_MS = 60_000;

function lastLines(text: string): string {
  const lines = text.split('\n').map((line) => line.trim()).filter(Boolean);
  return lines.slice(-2).join(' / ') || 'no output';
}

export async function initialiseCluster(placement: EmbeddedPlacement, user: string, password: string): Promise<void> {
  const { realDataDir, runAs } = placement;
  // Emptied and handed to the server's user; initdb refuses a directory with anything in it.
  await fs.rm(realDataDir, { recursive: true, force: true });
  await fs.mkdir(realDataDir, { recursive: true, mode: 0o700 });
  if (runAs) await fs.chown(realDataDir, runAs.uid, runAs.gid);

  const passwordFile = path.join(os.tmpdir(), `pg-password-${randomBytes(8).toString('hex')}`);
  await fs.writeFile(passwordFile, `${password}\n`, { mode: 0o600, flag: 'wx' });
  if (runAs) await fs.chown(passwordFile, runAs.uid, runAs.gid);
  try {
    const output = await new Promise<{ code: number | null; text: string }>((resolve, reject) => {
      const child = spawn(
        path.join(placement.binDir, 'initdb'),
        [`--pgdata=${realDataDir}`, '--auth=scram-sha-256', `--username=${user}`, `--pwfile=${passwordFile}`, '--encoding=UTF8', '--locale=C'],
        { ...runAs, cwd: path.dirname(realDataDir), env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      const timer = setTimeout(() => child.kill('SIGKILL'), INIT_TIMEOUT_MS);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(new EmbeddedServerError(`cannot run initdb (${error.message}): run \`npm ci\`, or set DATABASE_URL to a PostgreSQL server`));
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, text });
      });
    });
    if (output.code !== 0) {
      throw new EmbeddedServerError(`initdb failed on ${realDataDir} (${lastLines(output.text)}): remove that directory and start again, or set DATABASE_URL`);
    }
  } finally {
    await fs.rm(passwordFile, { force: true });
  }
}

async function accepting(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface StartedPostgres {
  pid: number;
}

/**
 * Starts the server in a session of its own: Ctrl-C in a terminal signals the whole foreground process group, and the
 * database must outlive the service's own shutdown (requests in flight, workers finishing), which then stops it.
 * Its log goes to `logFile`; start-up waits until it accepts connections on `probeUrl`.
 */
export async function startPostgres(placement: EmbeddedPlacement, port: number, logFile: string, probeUrl: string): Promise<StartedPostgres> {
  const log = openSync(logFile, 'a', 0o600);
  const child = spawn(
    path.join(placement.binDir, 'postgres'),
    ['-D', placement.realDataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'],
    { ...placement.runAs, cwd: path.dirname(placement.realDataDir), env: { ...process.env, LC_ALL: 'C' }, detached: true, stdio: ['ignore', log, log] },
  );
  closeSync(log);
  let exited: string | undefined;
  child.on('exit', (code, signal) => (exited = `exit ${signal ?? code}`));
  const spawnError = new Promise<string>((resolve) => child.on('error', (error) => resolve(error.message)));
  child.unref();

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const failure = await Promise.race([spawnError, new Promise<undefined>((resolve) => setTimeout(resolve, 100))]);
    if (failure) throw new EmbeddedServerError(`cannot run postgres (${failure}): run \`npm ci\`, or set DATABASE_URL to a PostgreSQL server`);
    if (exited) {
      const text = await fs.readFile(logFile, 'utf8').catch(() => '');
      throw new EmbeddedServerError(`postgres stopped at start (${exited}: ${lastLines(text)}); its log is ${logFile}`);
    }
    if (await accepting(probeUrl)) return { pid: child.pid! };
  }
  child.kill('SIGKILL');
  throw new EmbeddedServerError(`postgres did not accept connections within ${START_TIMEOUT_MS / 1000} s; its log is ${logFile}`);
}
