import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { ensureEmbeddedServer, type EmbeddedServerHandle } from '../lib/db/embedded-server';
import { EmbeddedServerError } from '../lib/db/embedded-server-error';
import { applyMigrations } from '../lib/db/migrate';
// @ts-expect-error: plain JavaScript without declarations (it runs before anything is compiled)
import { buildCli } from '../scripts/build-cli.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseServerUrl: string;
    migratedTemplateDatabase: string;
  }
}

let embedded: EmbeddedServerHandle | undefined;
let serverUrl: string | undefined;
let templateName: string | undefined;

async function onServer(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function databaseUrl(server: string, name: string): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The suite runs on DATABASE_URL's server when it is set, else on an embedded PostgreSQL server of its own
 * (./.data/test-pg, apart from the development data). Each test file then gets a database of its own.
 */
export async function setup(project: TestProject) {
  await buildCli(); // the CLI tests run the compiled commands, as `npm run admin` does: from the sources under test
  serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    process.env.EMBEDDED_PG_DIR ??= path.resolve('.data', 'test-pg');
    embedded = await ensureEmbeddedServer({ owner: false }).catch((error: unknown) => {
      if (!(error instanceof EmbeddedServerError)) throw error;
      console.error(error.message); // one line that says what to do, not a stack trace
      process.exit(1);
    });
    serverUrl = embedded.serverUrl;
  }
  // Migrated once here; each test file's database is a copy of it (CREATE DATABASE … TEMPLATE), which takes a third
  // of the time of migrating a fresh one, in every one of the ~160 files. applyMigrations closes its connection:
  // a session left on the template would refuse every copy.
  templateName = `test_template_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE ${templateName}`);
  await applyMigrations(databaseUrl(serverUrl, templateName));
  project.provide('databaseServerUrl', serverUrl);
  project.provide('migratedTemplateDatabase', templateName);
}

export async function teardown() {
  if (serverUrl && templateName) await onServer(serverUrl, `DROP DATABASE IF EXISTS ${templateName} WITH (FORCE)`);
  if (embedded?.startedHere) await embedded.stop();
}
