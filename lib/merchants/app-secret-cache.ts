import { decryptSecret } from '../crypto/secret-box';

/**
 * Decrypted AppSecrets of recently seen merchants, keyed by their encrypted envelope: every signed request needs
 * the plain secret, and an AES-GCM open per request is CPU the open API need not spend. A rotated secret has a new
 * envelope, so a stale entry is never found; the oldest entries make way once the cache is full. The plain secrets
 * stay in this process's memory only (never logged, never written anywhere).
 */
const MAX_ENTRIES = 1_000;
const plainByEnvelope = new Map<string, string>();

export function appSecretOf(envelope: string): string {
  const known = plainByEnvelope.get(envelope);
  if (known !== undefined) return known;
  const plain = decryptSecret(envelope);
  if (plainByEnvelope.size >= MAX_ENTRIES) plainByEnvelope.delete(plainByEnvelope.keys().next().value!);
  plainByEnvelope.set(envelope, plain);
  return plain;
}

/** How many secrets the cache holds (for its test). */
export function cachedAppSecretCount(): number {
  return plainByEnvelope.size;
}
