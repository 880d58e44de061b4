import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { guessableReason } from './secret-strength';
import { StartupRefusal } from './startup-refusal';

/**
 * The two secrets every process needs: APP_ENCRYPTION_KEY (secrets at rest) and NEXTAUTH_SECRET (portal sessions).
 * On a DATABASE_URL they must be configured, in every process (service, worker, CLIs, migrations) and every mode.
 * On the embedded database they may be left unset: each data directory then has its own random pair, generated
 * once and kept beside the data (`<dir>.secrets.json`, mode 0600), so every process on that directory agrees on them
 * and no key is ever a constant of the code.
 */
export interface ProcessSecrets {
  encryptionKey: string;
  sessionSecret: string;
}

const SESSION_SECRET_MIN_LENGTH = 32;

export function embeddedSecretsFile(dataDir: string): string {
  return `${dataDir}.secrets.json`;
}

/** The 32-byte key from its text (64 hex characters or base64), or undefined when it is not one. */
export function parseEncryptionKey(text: string): Buffer | undefined {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  return key.length === 32 ? key : undefined;
}

function checkConfigured(env: NodeJS.ProcessEnv): void {
  const key = env.APP_ENCRYPTION_KEY;
  if (key && !parseEncryptionKey(key)) throw new StartupRefusal('APP_ENCRYPTION_KEY', 'must be 32 bytes: 64 hex characters or base64 (e.g. `openssl rand -hex 32`)');
  const keyGuessable = key ? guessableReason(key) : undefined;
  if (keyGuessable) throw new StartupRefusal('APP_ENCRYPTION_KEY', keyGuessable);
  const session = env.NEXTAUTH_SECRET ?? env.AUTH_SECRET;
  if (session && session.length < SESSION_SECRET_MIN_LENGTH) {
    throw new StartupRefusal('NEXTAUTH_SECRET', `must be at least ${SESSION_SECRET_MIN_LENGTH} characters (e.g. \`openssl rand -base64 32\`)`);
  }
  const sessionGuessable = session ? guessableReason(session) : undefined;
  if (sessionGuessable) throw new StartupRefusal(env.NEXTAUTH_SECRET ? 'NEXTAUTH_SECRET' : 'AUTH_SECRET', sessionGuessable);
}

async function readSecretsFile(file: string): Promise<ProcessSecrets | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<ProcessSecrets>;
  if (typeof parsed.encryptionKey !== 'string' || typeof parsed.sessionSecret !== 'string') {
    throw new StartupRefusal('APP_ENCRYPTION_KEY', `${file} is not a secrets file of this service; move it away only if the data beside it can be thrown away`);
  }
  return { encryptionKey: parsed.encryptionKey, sessionSecret: parsed.sessionSecret };
}

/** The data directory's secrets, created on first use; two processes starting at once agree (exclusive create). */
export async function embeddedSecrets(dataDir: string): Promise<ProcessSecrets> {
  const file = embeddedSecretsFile(dataDir);
  const existing = await readSecretsFile(file);
  if (existing) return existing;
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o755 });
  const fresh: ProcessSecrets = { encryptionKey: randomBytes(32).toString('hex'), sessionSecret: randomBytes(32).toString('base64url') };
  try {
    await fs.writeFile(file, `${JSON.stringify(fresh)}\n`, { mode: 0o600, flag: 'wx' });
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await readSecretsFile(file))!;
  }
}

/**
 * Makes sure process.env holds both secrets before anything encrypts, decrypts or signs. `embeddedDataDir` is given
 * when the process runs on the embedded database: unset values then come from that directory's secrets.
 */
export async function ensureProcessSecrets(options: { embeddedDataDir?: string }, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  checkConfigured(env);
  const missingKey = !env.APP_ENCRYPTION_KEY;
  const missingSession = !(env.NEXTAUTH_SECRET ?? env.AUTH_SECRET);
  if (!missingKey && !missingSession) return;
  if (!options.embeddedDataDir) {
    const missing = missingKey ? 'APP_ENCRYPTION_KEY' : 'NEXTAUTH_SECRET';
    const how = missingKey ? '32 random bytes, e.g. `openssl rand -hex 32`' : 'e.g. `openssl rand -base64 32`';
    throw new StartupRefusal(missing, `is required with DATABASE_URL, by every process on that database (${how}; the same value for all of them)`);
  }
  const secrets = await embeddedSecrets(options.embeddedDataDir);
  if (missingKey) env.APP_ENCRYPTION_KEY = secrets.encryptionKey;
  if (missingSession) env.NEXTAUTH_SECRET = secrets.sessionSecret;
}
