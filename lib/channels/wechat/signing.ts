import { DomainError } from '../../errors/domain-error';
import { createDecipheriv, createPublicKey, createSign, createVerify, randomBytes, X509Certificate, type KeyObject } from 'node:crypto';

/**
 * WeChat Pay API v3 cryptography with Node's own `crypto` (docs/channels/wechat.md): requests signed
 * SHA256withRSA with the merchant's API private key, responses and callbacks verified with the platform
 * certificate or the WeChat Pay public key, callback resources decrypted with AES-256-GCM under the APIv3 key.
 * Pure: no database, no clock (callers pass the time).
 */

export const AUTHORIZATION_SCHEMA = 'WECHATPAY2-SHA256-RSA2048';
/** WeChat's probe signatures: a merchant that accepts them does not verify. */
export const SIGNTEST_PREFIX = 'WECHATPAY/SIGNTEST/';
/** Responses and callbacks whose Wechatpay-Timestamp is further than this from our clock are refused (replays). */
export const MAX_CLOCK_SKEW_SECONDS = 300;

function nonceString(): string {
  return randomBytes(16).toString('hex').toUpperCase();
}

/** The text a request signature covers: `METHOD\n/path?query\ntimestamp\nnonce\nbody\n` (body empty for GET). */
export function requestSigningText(method: string, pathWithQuery: string, timestamp: string, nonce: string, body: string): string {
  return `${method.toUpperCase()}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${body}\n`;
}

/** The text a response or callback signature covers: `timestamp\nnonce\nbody\n`. */
export function responseSigningText(timestamp: string, nonce: string, body: string): string {
  return `${timestamp}\n${nonce}\n${body}\n`;
}

export function rsaSign(text: string, privateKey: string | KeyObject): string {
  return createSign('RSA-SHA256').update(text, 'utf8').sign(privateKey, 'base64');
}

export function rsaVerify(text: string, signature: string, publicKey: KeyObject): boolean {
  try {
    return createVerify('RSA-SHA256').update(text, 'utf8').verify(publicKey, signature, 'base64');
  } catch {
    return false;
  }
}

export interface RequestSigner {
  mchId: string;
  /** The merchant API certificate's serial. */
  serialNo: string;
  privateKey: string | KeyObject;
}

/** The `Authorization` header of one request. */
export function authorizationHeader(
  signer: RequestSigner,
  request: { method: string; pathWithQuery: string; body: string; timestamp: number; nonce?: string },
): string {
  const nonce = request.nonce ?? nonceString();
  const timestamp = String(request.timestamp);
  const signature = rsaSign(requestSigningText(request.method, request.pathWithQuery, timestamp, nonce, request.body), signer.privateKey);
  return `${AUTHORIZATION_SCHEMA} mchid="${signer.mchId}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${signer.serialNo}"`;
}

/** The keys WeChat's signatures of one merchant account are checked with, chosen by `Wechatpay-Serial`. */
export interface WechatVerifier {
  /** Platform certificate mode: each known certificate's serial (upper-case hex) and key (several across a rotation). */
  certificates: { serial: string; key: KeyObject }[];
  /** WeChat Pay public key mode: `PUB_KEY_ID_…` and the key. A migrating merchant has both. */
  publicKey?: { id: string; key: KeyObject };
}

/**
 * Builds the verifier from what a credential stores (a PEM certificate and/or a PEM public key with its id) and the
 * platform certificates downloaded for it since.
 */
export function wechatVerifier(stored: { platformCertificate?: string | null; downloadedCertificates?: readonly string[]; publicKey?: string | null; publicKeyId?: string | null }): WechatVerifier {
  const verifier: WechatVerifier = { certificates: [] };
  for (const pem of [stored.platformCertificate, ...(stored.downloadedCertificates ?? [])]) {
    if (!pem) continue;
    const certificate = new X509Certificate(pem);
    const serial = normalizeSerial(certificate.serialNumber);
    if (!verifier.certificates.some((known) => known.serial === serial)) verifier.certificates.push({ serial, key: certificate.publicKey });
  }
  if (stored.publicKey && stored.publicKeyId) verifier.publicKey = { id: stored.publicKeyId, key: createPublicKey(stored.publicKey) };
  return verifier;
}

/** Certificate serials compare as upper-case hex without leading zeros (WeChat prints them so). */
export function normalizeSerial(serial: string): string {
  return serial.trim().toUpperCase().replace(/^0+(?=.)/, '');
}

/** The key a `Wechatpay-Serial` names, if the verifier has it. */
export function keyForSerial(verifier: WechatVerifier, serial: string): KeyObject | undefined {
  if (serial.startsWith('PUB_KEY_ID_')) return verifier.publicKey?.id === serial ? verifier.publicKey.key : undefined;
  if (!/^[0-9A-Fa-f]{1,64}$/.test(serial)) return undefined;
  const wanted = normalizeSerial(serial);
  return verifier.certificates.find((certificate) => certificate.serial === wanted)?.key;
}

export interface SignedMessage {
  timestamp: string | null;
  nonce: string | null;
  signature: string | null;
  serial: string | null;
  body: string;
}

/** Reads the four `Wechatpay-*` headers of a response or callback. */
export function signedMessage(headers: Headers, body: string): SignedMessage {
  return {
    timestamp: headers.get('wechatpay-timestamp'),
    nonce: headers.get('wechatpay-nonce'),
    signature: headers.get('wechatpay-signature'),
    serial: headers.get('wechatpay-serial'),
    body,
  };
}

/** `unknownSerial`: the only fault is a Wechatpay-Serial naming no key we hold (a rotation we have not seen yet). */
export type VerifyResult = { ok: true } | { ok: false; reason: string; unknownSerial?: true };

/**
 * Checks a response's or callback's signature: all four headers present, the signature not a SIGNTEST probe, the
 * timestamp within MAX_CLOCK_SKEW_SECONDS of `now`, the key named by Wechatpay-Serial known, SHA256withRSA valid.
 */
export function verifyWechatSignature(message: SignedMessage, verifier: WechatVerifier, now: Date): VerifyResult {
  const { timestamp, nonce, signature, serial } = message;
  if (!timestamp || !nonce || !signature || !serial) return { ok: false, reason: 'Wechatpay-Timestamp, -Nonce, -Signature and -Serial headers are required' };
  if (signature.startsWith(SIGNTEST_PREFIX)) return { ok: false, reason: 'a WECHATPAY/SIGNTEST/ probe signature is never accepted' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'Wechatpay-Timestamp is not a Unix time in seconds' };
  const skew = Math.abs(now.getTime() / 1000 - Number(timestamp));
  if (skew > MAX_CLOCK_SKEW_SECONDS) return { ok: false, reason: `Wechatpay-Timestamp is ${Math.round(skew)} s away from our clock (more than ${MAX_CLOCK_SKEW_SECONDS} s): a replay or a wrong clock` };
  const key = keyForSerial(verifier, serial);
  if (!key) return { ok: false, reason: `Wechatpay-Serial ${serial.slice(0, 80)} names no key of this credential`, unknownSerial: true };
  if (!rsaVerify(responseSigningText(timestamp, nonce, message.body), signature, key)) return { ok: false, reason: 'signature does not match' };
  return { ok: true };
}

export interface EncryptedResource {
  algorithm?: string;
  ciphertext: string;
  associated_data?: string;
  nonce: string;
}

/** WeChat Pay sent a resource this service cannot decrypt (wrong key, altered data): the upstream's message is unusable. */
export class ResourceDecryptionFailed extends DomainError {
  constructor(reason: string) {
    super('upstream_failure', { message: reason });
    this.name = 'ResourceDecryptionFailed';
  }
}

/** AES-256-GCM: key = the 32-byte APIv3 key, IV = the nonce's bytes, AAD = associated_data, ciphertext ‖ 16-byte tag. */
export function decryptResource(resource: EncryptedResource, apiV3Key: string): string {
  if (resource.algorithm !== undefined && resource.algorithm !== 'AEAD_AES_256_GCM') throw new ResourceDecryptionFailed(`algorithm ${resource.algorithm} is not supported`);
  const key = Buffer.from(apiV3Key, 'utf8');
  if (key.length !== 32) throw new ResourceDecryptionFailed('the APIv3 key must be 32 bytes');
  const data = Buffer.from(resource.ciphertext, 'base64');
  if (data.length <= 16) throw new ResourceDecryptionFailed('ciphertext is too short');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(resource.nonce, 'utf8'));
    decipher.setAuthTag(data.subarray(data.length - 16));
    decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'));
    return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    throw new ResourceDecryptionFailed('the resource does not decrypt under this APIv3 key (wrong key or tampered)');
  }
}
