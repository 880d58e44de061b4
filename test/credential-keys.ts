import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Test support: real RSA keys (node:crypto) and a fixed self-signed certificate for upstream credentials. */

export function rsaKeyPair(bits = 2048): { privateKey: string; publicKey: string } {
  return generateKeyPairSync('rsa', {
    modulusLength: bits,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
}

/** `openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=test -days 3650`, generated once (valid until 2036). */
export const PLATFORM_CERTIFICATE = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'wechat-platform-certificate.pem'), 'utf8');

export const API_V3_KEY = '0123456789abcdefghijklmnopqrstuv';

let sequence = 0;

/** A valid ALIPAY credential input (16-digit app id, distinct per call). */
export function anAlipayCredential() {
  sequence += 1;
  const app = rsaKeyPair();
  const alipay = rsaKeyPair();
  return { appId: String(2021000000000000 + sequence), appPrivateKey: app.privateKey, alipayPublicKey: alipay.publicKey };
}

/** A valid WECHAT API v3 credential input, verifying WeChat with the platform certificate. */
export function aWechatCredential() {
  return {
    appId: 'wx1234567890abcdef',
    mchId: '1900000109',
    merchantCertSerial: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
    merchantPrivateKey: rsaKeyPair().privateKey,
    apiV3Key: API_V3_KEY,
    platformCertificate: PLATFORM_CERTIFICATE,
  };
}
