import { createHmac, timingSafeEqual } from 'node:crypto';
import pg from 'pg';
import { decryptSecret } from './secret-box';
import { parseEncryptionKey } from '../config/process-secrets';
import { StartupRefusal } from '../config/startup-refusal';

/**
 * A key check value: the database keeps an HMAC of a fixed text under the encryption key it was first used with,
 * so a process started with another APP_ENCRYPTION_KEY is refused at start, never at the first request that needs a
 * secret. A database from before the check gets it on the first start whose key opens a stored secret.
 */
const SETTING_KEY = 'encryption_key_check';
const CHECKED_TEXT = 'payment-order-service: APP_ENCRYPTION_KEY check';

export function keyCheckValue(key: Buffer): string {
  return `hmac-sha256:${createHmac('sha256', key).update(CHECKED_TEXT).digest('hex')}`;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function wrongKey(embeddedDataDir: string | undefined): StartupRefusal {
  const remedy = embeddedDataDir
    ? `this embedded data directory's key is kept in ${embeddedDataDir}.secrets.json; if that file is lost (or the data predates ` +
      `it: the former built-in development key), the stored secrets cannot be read: remove ${embeddedDataDir} and its .json files beside it to start afresh`
    : 'start every process with the key the database was set up with';
  return new StartupRefusal('APP_ENCRYPTION_KEY', `cannot decrypt the secrets stored in this database: it is not the key they were encrypted with; ${remedy}`);
}

/** Some secret already stored (an AppSecret or an upstream private key), to try the key on before the check exists. */
async function anyStoredSecret(client: pg.Client): Promise<string | undefined> {
  const merchant = await client.query<{ secret: string }>('SELECT app_secret_encrypted AS secret FROM merchants LIMIT 1');
  if (merchant.rows[0]) return merchant.rows[0].secret;
  const credential = await client.query<{ secret: string }>('SELECT private_key_encrypted AS secret FROM upstream_credentials LIMIT 1');
  return credential.rows[0]?.secret;
}

/**
 * Refuses (StartupRefusal) when APP_ENCRYPTION_KEY is not the database's key; records the check value on first use.
 * `openClient` gives an unconnected client on the database (lib/db's databaseClient: on the primary of a multi-host
 * DATABASE_URL), so that this folder needs nothing of lib/db's.
 */
export async function verifyEncryptionKey(openClient: () => pg.Client, options: { embeddedDataDir?: string } = {}, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const key = parseEncryptionKey(env.APP_ENCRYPTION_KEY ?? '');
  if (!key) throw new StartupRefusal('APP_ENCRYPTION_KEY', 'is not set');
  const expected = keyCheckValue(key);
  const client = openClient();
  await client.connect();
  try {
    // A database without the schema yet (a benchmark's server, before its migrations) holds no secret to check.
    const schema = await client.query<{ found: string | null }>("SELECT to_regclass('platform_settings') AS found");
    if (!schema.rows[0]?.found) return;
    const stored = await client.query<{ value: string }>('SELECT value FROM platform_settings WHERE key = $1', [SETTING_KEY]);
    if (stored.rows[0]) {
      if (!sameText(stored.rows[0].value, expected)) throw wrongKey(options.embeddedDataDir);
      return;
    }
    const sample = await anyStoredSecret(client);
    if (sample !== undefined) {
      try {
        decryptSecret(sample);
      } catch {
        throw wrongKey(options.embeddedDataDir);
      }
    }
    await client.query('INSERT INTO platform_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [SETTING_KEY, expected]);
    // Another process may have recorded its own key at the same moment: the row that stayed is the database's key.
    const recorded = await client.query<{ value: string }>('SELECT value FROM platform_settings WHERE key = $1', [SETTING_KEY]);
    if (!sameText(recorded.rows[0]!.value, expected)) throw wrongKey(options.embeddedDataDir);
  } finally {
    await client.end();
  }
}
