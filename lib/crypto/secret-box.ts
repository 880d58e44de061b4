import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { parseEncryptionKey } from '../config/process-secrets';

/**
 * AES-256-GCM for secrets at rest. Envelope: `v1.<iv>.<tag>.<ciphertext>` (base64url parts).
 * The key is APP_ENCRYPTION_KEY (32 bytes as 64 hex chars or base64). Entry points make sure it is set before anything
 * runs (lib/config/process-secrets: configured, or the embedded data directory's own random key); there is no default.
 */
function encryptionKey(): Buffer {
  const key = parseEncryptionKey(process.env.APP_ENCRYPTION_KEY ?? '');
  if (!key) throw new Error('APP_ENCRYPTION_KEY is not set or not 32 bytes (64 hex characters or base64)');
  return key;
}

export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(), iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
}

export function decryptSecret(envelope: string): string {
  const [version, iv, tag, ciphertext] = envelope.split('.');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('unknown secret envelope');
  const decipher = createDecipheriv('aes-256-gcm', encryptionKey(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
