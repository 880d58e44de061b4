import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';

/** Runs the operator CLI as an operator would, next to the running service (same database). */
export function admin(...args: string[]): any {
  const output = execFileSync('npx', ['tsx', 'scripts/admin.ts', ...args, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, EMBEDDED_PG_DIR: process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg' },
  });
  return JSON.parse(output);
}

/** The contract's signature, written independently of lib/signing. */
export function signed(fields: Record<string, string>, appSecret: string): Record<string, string> {
  const text =
    Object.keys(fields)
      .filter((key) => fields[key] !== '')
      .sort()
      .map((key) => `${key}=${fields[key]}`)
      .join('&') + `&appsecret=${appSecret}`;
  return { ...fields, signature: createHash('md5').update(text).digest('hex').toUpperCase() };
}

/** A valid TRON address (base58check of 0x41 + 20 random bytes). */
export function randomTronAddress(): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  const payload = Buffer.concat([Buffer.from([0x41]), randomBytes(20)]);
  const checksum = createHash('sha256').update(createHash('sha256').update(payload).digest()).digest().subarray(0, 4);
  let value = BigInt(`0x${Buffer.concat([payload, checksum]).toString('hex')}`);
  let text = '';
  while (value > 0n) {
    text = alphabet[Number(value % 58n)] + text;
    value /= 58n;
  }
  return text;
}
