import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureEmbeddedServer, type EmbeddedServerHandle } from '../lib/db/embedded-server';
import { EmbeddedServerError } from '../lib/db/embedded-server-error';
import { applyMigrations } from '../lib/db/migrate';
// @ts-expect-error: plain JavaScript without declarations (it runs before anything is compiled)
import { buildCli } from '../scripts/build-cli.mjs';
import { databaseUrlOn, onDatabaseServer, uniqueDatabaseName } from './database-server';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseServerUrl: string;
    migratedTemplateDatabase: string;
  }
}

let embedded: EmbeddedServerHandle | undefined;
let serverUrl: string | undefined;
let templateName: string | undefined;

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
  const template = uniqueDatabaseName('test_template');
  templateName = template;
  await onDatabaseServer(serverUrl, (client) => client.query(`CREATE DATABASE ${template}`));
  await applyMigrations(databaseUrlOn(serverUrl, template));
  project.provide('databaseServerUrl', serverUrl);
  project.provide('migratedTemplateDatabase', templateName);
}

export async function teardown() {
  const template = templateName;
  if (serverUrl && template) await onDatabaseServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
  if (embedded?.startedHere) await embedded.stop();
}
