import { createSign, generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';

/**
 * The simulator's WeChat Pay platform certificates: an RSA 2048 key and a self-signed X.509 v3 certificate made with
 * node:crypto and a small DER writer (Node can read certificates but not make them). Real platform certificates are
 * issued by Tenpay's CA; the service checks a certificate's key and serial, not its issuer, so a self-signed one
 * exercises the same code.
 */

function length(size: number): Buffer {
  if (size < 0x80) return Buffer.from([size]);
  const bytes: number[] = [];
  for (let rest = size; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

const sequence = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => tlv(0x31, Buffer.concat(parts));

function objectId(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [first! * 40 + second!];
  for (const arc of rest) {
    const group = [arc & 0x7f];
    for (let value = arc >> 7; value > 0; value >>= 7) group.unshift((value & 0x7f) | 0x80);
    bytes.push(...group);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function positiveInteger(bytes: Buffer): Buffer {
  return tlv(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

/** GeneralizedTime, valid for any year (UTCTime stops at 2049). */
function time(date: Date): Buffer {
  return tlv(0x18, Buffer.from(`${date.toISOString().slice(0, 19).replace(/[-:T]/g, '')}Z`, 'ascii'));
}

function name(commonName: string): Buffer {
  const attribute = (oid: string, value: string) => set(sequence(objectId(oid), tlv(0x0c, Buffer.from(value, 'utf8'))));
  return sequence(attribute('2.5.4.6', 'CN'), attribute('2.5.4.10', 'Tenpay.com (sandbox)'), attribute('2.5.4.3', commonName));
}

const SHA256_WITH_RSA = sequence(objectId('1.2.840.113549.1.1.11'), tlv(0x05, Buffer.alloc(0)));

export interface SandboxPlatformCertificate {
  /** Upper-case hex, as WeChat prints serials. */
  serial: string;
  certificatePem: string;
  privateKeyPem: string;
  effectiveTime: string;
  expireTime: string;
}

/** A new platform key and its certificate, valid from `from` for `days`. */
export function newPlatformCertificate(from: Date, days = 5 * 365): SandboxPlatformCertificate {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const serialBytes = randomBytes(20);
  serialBytes[0] = serialBytes[0]! & 0x7f || 0x10;
  const until = new Date(from.getTime() + days * 86_400_000);
  const subject = name('Tenpay.com sandbox platform certificate');
  const tbs = sequence(
    tlv(0xa0, positiveInteger(Buffer.from([2]))),
    positiveInteger(serialBytes),
    SHA256_WITH_RSA,
    subject,
    sequence(time(from), time(until)),
    subject,
    pair.publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = createSign('sha256').update(tbs).sign(pair.privateKey);
  const der = sequence(tbs, SHA256_WITH_RSA, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const certificatePem = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
  const parsed = new X509Certificate(certificatePem);
  return {
    serial: parsed.serialNumber.toUpperCase(),
    certificatePem,
    privateKeyPem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    effectiveTime: from.toISOString(),
    expireTime: until.toISOString(),
  };
}
