import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { closeDb } from '../lib/db/client';
import { applyMigrations } from '../lib/db/migrate';

/** Every test file runs on a fresh database of its own, migrated like production, dropped afterwards. */
const serverUrl = inject('databaseServerUrl');
const databaseName = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;

async function onServer(statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

await onServer(`CREATE DATABASE ${databaseName}`);
const url = new URL(serverUrl);
url.pathname = `/${databaseName}`;
process.env.DATABASE_URL = url.toString();
await applyMigrations(process.env.DATABASE_URL);

afterAll(async () => {
  await closeDb();
  await onServer(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
});
