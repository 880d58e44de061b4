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

/** What the run's projects share: the server, the migrated template, and how many projects still use them. */
interface SharedDatabase {
  serverUrl: string;
  template: string;
  embedded?: EmbeddedServerHandle;
  users: number;
}

/**
 * Each project of vitest.config.ts runs this file's setup and teardown, each in a module of its own, in the one main
 * process: the state lives on globalThis, so the first setup starts the server and migrates the template, the others
 * use them, and the last teardown drops the template and stops the server. (When each project kept its own, the first
 * teardown stopped the embedded server under the second, whose template was left behind in .data/test-pg.)
 */
const SHARED = Symbol.for('payment-order-service.test-database');
const registry = globalThis as typeof globalThis & { [SHARED]?: Promise<SharedDatabase> };

async function startSharedDatabase(): Promise<SharedDatabase> {
  await buildCli(); // the CLI tests run the compiled commands, as `npm run admin` does: from the sources under test
  let serverUrl = process.env.DATABASE_URL;
  let embedded: EmbeddedServerHandle | undefined;
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
  await onDatabaseServer(serverUrl, (client) => client.query(`CREATE DATABASE ${template}`));
  await applyMigrations(databaseUrlOn(serverUrl, template));
  return { serverUrl, template, embedded, users: 0 };
}

/**
 * The suite runs on DATABASE_URL's server when it is set, else on an embedded PostgreSQL server of its own
 * (./.data/test-pg, apart from the development data). Each test file then gets a database of its own.
 */
export async function setup(project: TestProject) {
  registry[SHARED] ??= startSharedDatabase();
  const shared = await registry[SHARED];
  shared.users += 1;
  project.provide('databaseServerUrl', shared.serverUrl);
  project.provide('migratedTemplateDatabase', shared.template);
}

export async function teardown() {
  const shared = await registry[SHARED];
  if (!shared) return;
  shared.users -= 1;
  if (shared.users > 0) return;
  registry[SHARED] = undefined;
  await onDatabaseServer(shared.serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${shared.template} WITH (FORCE)`));
  if (shared.embedded?.startedHere) await shared.embedded.stop();
}
