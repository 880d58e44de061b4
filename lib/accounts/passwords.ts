import { hash, verify } from '@node-rs/argon2';
import { z } from 'zod';

/** Long enough to resist guessing, bounded so that hashing cannot be used to exhaust the server. */
export const newPasswordSchema = z
  .string()
  .min(10, 'Password must be at least 10 characters')
  .max(128, 'Password must be at most 128 characters');

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email('Enter a valid email address'));

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password against an argon2 hash. Without a hash (no such account) a dummy hash is verified instead,
 * so the answer takes as long either way and does not tell which emails have accounts.
 */
export async function verifyPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
  if (password.length > 128) return false;
  if (!passwordHash) {
    dummyHash ??= hash('dummy password that matches nothing');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
