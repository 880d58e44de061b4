import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Runs `work` on a connection of its own to `url`, closed afterwards (a session left open blocks a copy or a drop).
 * A close that fails is not reported: the connection is gone either way, and `work`'s own error stays the one thrown.
 */
export async function onDatabaseServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The URL of database `name` on the server of `serverUrl`. */
export function databaseUrlOn(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A database name no other run or file on the same server has. */
export function uniqueDatabaseName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}
