import { createHmac } from 'node:crypto';

/**
 * An authenticator app's code, written from RFC 6238 (and RFC 4226's dynamic truncation) for the tests, apart from the
 * library the service uses: HMAC-SHA-1 of the 30-second step counter under the base32 secret, six digits.
 */
export function authenticatorCode(secretBase32: string, at: Date = new Date()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const character of secretBase32.replace(/[\s=]/g, '').toUpperCase()) {
    const value = alphabet.indexOf(character);
    if (value < 0) throw new Error(`not base32: ${character}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at.getTime() / 30_000)));
  const digest = createHmac('sha1', key).update(counter).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

const STEP_MS = 30_000;

/** An authenticator app as a test holds it: the secret, and the last 30-second step whose code was used. */
export interface AuthenticatorApp {
  secret: string;
  lastStep: number;
}

/**
 * The app's code for a step the service has not taken yet (it takes each step's code once, and accepts the steps
 * either side of its clock): the present one, or the next, waiting for a later step past that.
 */
export async function nextAuthenticatorCode(app: AuthenticatorApp): Promise<string> {
  const step = Math.max(Math.floor(Date.now() / STEP_MS), app.lastStep + 1);
  const wait = (step - 1) * STEP_MS + 500 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  app.lastStep = step;
  return authenticatorCode(app.secret, new Date(step * STEP_MS));
}
