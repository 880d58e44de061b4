import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureEmbeddedServer, type EmbeddedServerHandle } from '../lib/db/embedded-server';
import { EmbeddedServerError } from '../lib/db/embedded-server-error';
// @ts-expect-error: plain JavaScript without declarations (it runs before anything is compiled)
import { buildCli } from '../scripts/build-cli.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseServerUrl: string;
  }
}

let embedded: EmbeddedServerHandle | undefined;

/**
 * The suite runs on DATABASE_URL's server when it is set, else on an embedded PostgreSQL server of its own
 * (./.data/test-pg, apart from the development data). Each test file then gets a database of its own.
 */
export async function setup(project: TestProject) {
  await buildCli(); // the CLI tests run the compiled commands, as `npm run admin` does: from the sources under test
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    process.env.EMBEDDED_PG_DIR ??= path.resolve('.data', 'test-pg');
    embedded = await ensureEmbeddedServer({ owner: false }).catch((error: unknown) => {
      if (!(error instanceof EmbeddedServerError)) throw error;
      console.error(error.message); // one line that says what to do, not a stack trace
      process.exit(1);
    });
    serverUrl = embedded.serverUrl;
  }
  project.provide('databaseServerUrl', serverUrl);
}

export async function teardown() {
  if (embedded?.startedHere) await embedded.stop();
}
