import { createCipheriv, createSign, createVerify, randomBytes, randomInt, randomUUID } from 'node:crypto';

/**
 * The simulator's own implementation of WeChat Pay API v3's cryptography (/work docs: docs/channels/wechat.md),
 * written apart from lib/channels/wechat/signing.ts so that each checks the other.
 */

export interface AuthorizationFields {
  mchid: string;
  nonce_str: string;
  signature: string;
  timestamp: string;
  serial_no: string;
}

/** `WECHATPAY2-SHA256-RSA2048 mchid="…",nonce_str="…",signature="…",timestamp="…",serial_no="…"`, in any order. */
export function parseAuthorization(header: string | null): AuthorizationFields | undefined {
  if (!header) return undefined;
  const match = /^WECHATPAY2-SHA256-RSA2048\s+(.+)$/.exec(header.trim());
  if (!match) return undefined;
  const fields: Record<string, string> = {};
  for (const part of match[1]!.split(',')) {
    const pair = /^\s*([a-z_]+)="([^"]*)"\s*$/.exec(part);
    if (!pair || pair[1]! in fields) return undefined;
    fields[pair[1]!] = pair[2]!;
  }
  const { mchid, nonce_str, signature, timestamp, serial_no } = fields;
  if (!mchid || !nonce_str || !signature || !timestamp || !serial_no) return undefined;
  return { mchid, nonce_str, signature, timestamp, serial_no };
}

/** Checks a merchant's request signature over `METHOD\nurl\ntimestamp\nnonce\nbody\n` with its public key. */
export function merchantSignatureValid(auth: AuthorizationFields, method: string, url: string, body: string, merchantPublicKey: string): boolean {
  const message = [method, url, auth.timestamp, auth.nonce_str, body].join('\n') + '\n';
  try {
    return createVerify('sha256WithRSAEncryption').update(Buffer.from(message, 'utf8')).verify(merchantPublicKey, Buffer.from(auth.signature, 'base64'));
  } catch {
    return false;
  }
}

/** The four headers WeChat signs every answer and notification with. */
export function platformSignatureHeaders(body: string, platform: { privateKey: string; serial: string }, now: Date): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const nonce = randomBytes(16).toString('hex');
  const signature = createSign('sha256WithRSAEncryption').update(Buffer.from(`${timestamp}\n${nonce}\n${body}\n`, 'utf8')).sign(platform.privateKey).toString('base64');
  return { 'Wechatpay-Timestamp': timestamp, 'Wechatpay-Nonce': nonce, 'Wechatpay-Signature': signature, 'Wechatpay-Serial': platform.serial };
}

/** AEAD_AES_256_GCM as WeChat encrypts a notification's resource: base64(ciphertext ‖ tag), a 12-character nonce. */
export function encryptResource(plain: string, apiV3Key: string, associatedData = 'transaction') {
  const nonce = randomBytes(9).toString('base64url').slice(0, 12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'));
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const encrypted = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { original_type: 'transaction', algorithm: 'AEAD_AES_256_GCM', ciphertext: encrypted.toString('base64'), associated_data: associatedData, nonce };
}

/** Beijing time as WeChat writes it: `2026-01-01T08:00:00+08:00`. */
export function beijingTime(date: Date): string {
  return new Date(Math.floor(date.getTime() / 1000) * 1000 + 8 * 3600_000).toISOString().slice(0, 19) + '+08:00';
}

export function newTransactionId(now: Date): string {
  const day = beijingTime(now).slice(0, 10).replace(/-/g, '');
  return `4200${randomInt(100_000, 999_999)}${day}${randomInt(0, 1e10).toString().padStart(10, '0')}`;
}

export function newPrepayId(now: Date): string {
  return `wx${beijingTime(now).slice(0, 19).replace(/[-T:]/g, '')}${randomBytes(12).toString('hex')}`;
}

export function newPayId(): string {
  return randomBytes(18).toString('base64url');
}

export function notificationId(): string {
  return randomUUID();
}

export const OUT_TRADE_NO = /^[0-9A-Za-z_\-|*]{6,32}$/;
export const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

export type Json = Record<string, unknown>;

/** The value when it is a JSON object (not null, not an array). */
export function jsonObject(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

/** A request body that is one JSON object, or undefined (not JSON, or another JSON value). */
export function parseJsonObject(text: string): Json | undefined {
  try {
    return jsonObject(JSON.parse(text));
  } catch {
    return undefined;
  }
}
