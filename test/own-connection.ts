import pg from 'pg';

/**
 * A connection of its own to the test file's database, outside the service's pool: for a transaction held open beside
 * the service's statements, or for EXPLAIN. Its errors are ignored: the harness terminates it when it drops the
 * file's database.
 */
export async function ownConnection(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}
