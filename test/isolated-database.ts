import type pg from 'pg';
import { afterAll, inject } from 'vitest';
import { closeDb } from '../lib/db/client';
import { databaseUrlOn, onDatabaseServer, uniqueDatabaseName } from './database-server';

/**
 * Every test file runs on a fresh database of its own, dropped afterwards: a copy of the one the global setup
 * migrated like production.
 */
const serverUrl = inject('databaseServerUrl');
const template = inject('migratedTemplateDatabase');
const databaseName = uniqueDatabaseName('test');

await onDatabaseServer(serverUrl, (client) => client.query(`CREATE DATABASE ${databaseName} TEMPLATE ${template}`));
process.env.DATABASE_URL = databaseUrlOn(serverUrl, databaseName);

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
  await onDatabaseServer(serverUrl, async (client) => {
    await waitForSessionsToLeave(client, Date.now() + 5_000);
    await client.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  });
});
