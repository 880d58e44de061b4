import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for secrets at rest. Envelope: `v1.<iv>.<tag>.<ciphertext>` (base64url parts).
 * The key comes from APP_ENCRYPTION_KEY (32 bytes as 64 hex chars or base64); in development and tests a fixed
 * local key is derived so a newcomer needs no setup, and production refuses to start without a real one.
 */
function encryptionKey(): Buffer {
  const configured = process.env.APP_ENCRYPTION_KEY;
  if (configured) {
    const key = /^[0-9a-fA-F]{64}$/.test(configured) ? Buffer.from(configured, 'hex') : Buffer.from(configured, 'base64');
    if (key.length !== 32) throw new Error('APP_ENCRYPTION_KEY must be 32 bytes (64 hex characters or base64)');
    return key;
  }
  if (process.env.NODE_ENV === 'production') throw new Error('APP_ENCRYPTION_KEY is required in production');
  return createHash('sha256').update('payment-order-service development key').digest();
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
