import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/**
 * A connection to the database of the service under test (the embedded PostgreSQL in E2E_EMBEDDED_PG_DIR, found
 * through its postmaster.pid like every other process of the project finds it, or DATABASE_URL), so that a spec can
 * check what an action did, or did not do, to the stored rows.
 */
export async function connectE2eDatabase(): Promise<pg.Client> {
  let url = process.env.DATABASE_URL;
  if (!url) {
    const dataDir = path.resolve(process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg');
    const port = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[3]);
    const { password } = JSON.parse(readFileSync(`${dataDir}.credentials.json`, 'utf8')) as { password: string };
    url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/app`;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}
