import { createCipheriv, createSign, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** `openssl req -x509 -newkey rsa:2048 -nodes -days 3650` with its private key: a platform certificate tests can sign with. */
export const SIGNING_PLATFORM_CERTIFICATE = readFileSync(path.join(fixtures, 'wechat-platform-signing-certificate.pem'), 'utf8');
export const SIGNING_PLATFORM_KEY = readFileSync(path.join(fixtures, 'wechat-platform-signing-key.pem'), 'utf8');
export const SIGNING_PLATFORM_SERIAL = '7D414917B02356C2C09490DAB3419B94F4FE0B58';

/** WeChat's signature of an answer or notification, written independently of lib/channels/wechat/signing.ts. */
export function wechatHeaders(body: string, privateKey: string, serial: string, timestamp = Math.floor(Date.now() / 1000), nonce = randomBytes(8).toString('hex')) {
  const signature = createSign('sha256').update(`${timestamp}\n${nonce}\n${body}\n`).sign(privateKey, 'base64');
  return { 'wechatpay-timestamp': String(timestamp), 'wechatpay-nonce': nonce, 'wechatpay-signature': signature, 'wechatpay-serial': serial };
}

/** AES-256-GCM as WeChat encrypts a resource, written independently. */
export function encryptedResource(plain: unknown, apiV3Key: string, nonce = 'a1b2c3d4e5f6') {
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(apiV3Key), Buffer.from(nonce));
  cipher.setAAD(Buffer.from('transaction'));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(plain)), cipher.final(), cipher.getAuthTag()]).toString('base64');
  return { original_type: 'transaction', algorithm: 'AEAD_AES_256_GCM', ciphertext, associated_data: 'transaction', nonce };
}

/** A TRANSACTION.SUCCESS notification body around an encrypted resource. */
export function notificationBody(resource: ReturnType<typeof encryptedResource>, eventType = 'TRANSACTION.SUCCESS'): string {
  return JSON.stringify({ id: `EV-${randomBytes(6).toString('hex')}`, create_time: '2026-01-01T08:00:00+08:00', resource_type: 'encrypt-resource', event_type: eventType, summary: '支付成功', resource });
}
