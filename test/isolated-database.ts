import path from 'node:path';
import type pg from 'pg';
import { afterAll, expect, inject } from 'vitest';
import { closeDb } from '../lib/db/client';
import { DATABASE_FREE_FILES } from './database-free-files';
import { databaseUrlOn, onDatabaseServer, uniqueDatabaseName } from './database-server';
import { countConnections, reportDatabaseUse, transactionsIn } from './database-use';

/**
 * Every test file runs on a fresh database of its own, dropped afterwards: a copy of the one the global setup
 * migrated like production.
 */
const serverUrl = inject('databaseServerUrl');
const template = inject('migratedTemplateDatabase');
const databaseName = uniqueDatabaseName('test');

await onDatabaseServer(serverUrl, (client) => client.query(`CREATE DATABASE ${databaseName} TEMPLATE ${template}`));
process.env.DATABASE_URL = databaseUrlOn(serverUrl, databaseName);
const connectionsOpened = countConnections();
const testFile = path.relative(process.cwd(), expect.getState().testPath ?? '').split(path.sep).join('/');

/**
 * A pool's end() answers once its clients are told to close, before their sessions have gone: a forced drop in that
 * moment terminates a session whose client is still closing, and the client raises the server's 57P01 with no one
 * listening (an unhandled error in whichever file ran). So the drop waits, a few seconds at most, for the file's own
 * sessions to leave; FORCE is only for one that a test left open.
 */
async function waitForSessionsToLeave(client: pg.Client, deadline: number) {
  for (;;) {
    const { rows } = await client.query<{ open: number }>('SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = $1', [databaseName]);
    if (rows[0]!.open === 0 || Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

afterAll(async () => {
  await closeDb();
  const opened = connectionsOpened();
  await onDatabaseServer(serverUrl, async (client) => {
    await waitForSessionsToLeave(client, Date.now() + 5_000);
    const used = opened > 0 || (await transactionsIn(client, databaseName)) > 0;
    reportDatabaseUse(testFile, used);
    await client.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    // The run on a PostgreSQL server leaves the listed files out: a file that uses the database must not be listed.
    if (used && DATABASE_FREE_FILES.includes(testFile)) {
      throw new Error(`${testFile} used the database, but test/database-free-files.ts lists it as free of it: take it off the list`);
    }
  });
});
