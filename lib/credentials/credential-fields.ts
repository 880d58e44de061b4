import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { domainMessage, type DomainMessage } from '../errors/domain-message';
import { invalidCredential } from './errors';

/**
 * The checks every channel's credential validation is made of (lib/channels/<name>/credentials.ts): keys and
 * certificates parsed and normalised to PEM, patterns, and one invalid_credential DomainError naming every bad field.
 * Problems and labels are domain messages (`credentialFields.*` and the channel's own, in messages/<locale>/domain.json).
 */
export const MIN_RSA_BITS = 2048;
const MAX_PEM_LENGTH = 20_000;

export const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** Bare base64 (as some upstreams' key tools print keys) becomes DER; a PEM stays text. */
function pemOrDer(value: string): { pem: string } | { der: Buffer } | undefined {
  if (value.includes('-----BEGIN')) return { pem: value };
  const compact = value.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return undefined;
  return { der: Buffer.from(compact, 'base64') };
}

function parsePrivateKey(value: string): KeyObject | undefined {
  const input = pemOrDer(value);
  if (!input) return undefined;
  try {
    if ('pem' in input) return createPrivateKey(input.pem);
    for (const type of ['pkcs8', 'pkcs1'] as const) {
      try {
        return createPrivateKey({ key: input.der, format: 'der', type });
      } catch {
        // try the next encoding
      }
    }
  } catch {
    // not a key
  }
  return undefined;
}

function parsePublicKey(value: string): KeyObject | undefined {
  const input = pemOrDer(value);
  if (!input) return undefined;
  try {
    if ('pem' in input) {
      // createPublicKey also derives a public key from a private one: a private key is not accepted here.
      if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(input.pem)) return undefined;
      return createPublicKey(input.pem);
    }
    for (const type of ['spki', 'pkcs1'] as const) {
      try {
        return createPublicKey({ key: input.der, format: 'der', type });
      } catch {
        // try the next encoding
      }
    }
  } catch {
    // not a key
  }
  return undefined;
}

function rsaProblem(key: KeyObject): DomainMessage | undefined {
  if (key.asymmetricKeyType !== 'rsa') return domainMessage('credentialFields.notRsa');
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS) return domainMessage('credentialFields.rsaTooShort', { min: MIN_RSA_BITS, bits });
  return undefined;
}

/** Collects every bad field of one submitted credential, each message starting with the field's label. */
export class FieldErrors {
  readonly errors: Record<string, DomainMessage> = {};

  constructor(private readonly labels: Readonly<Record<string, DomainMessage>>) {}

  add(field: string, problem: DomainMessage) {
    this.errors[field] ??= domainMessage('credentialFields.fieldProblem', { label: this.labels[field] ?? field, problem });
  }

  required(field: string, value: string): boolean {
    if (value !== '') return true;
    this.add(field, domainMessage('credentialFields.required'));
    return false;
  }

  /** A private key, normalised to PKCS#8 PEM. */
  privateKey(field: string, value: string): string | undefined {
    if (!this.required(field, value)) return undefined;
    const key = value.length <= MAX_PEM_LENGTH ? parsePrivateKey(value) : undefined;
    if (!key) {
      this.add(field, domainMessage('credentialFields.notPrivateKey'));
      return undefined;
    }
    const problem = rsaProblem(key);
    if (problem) {
      this.add(field, problem);
      return undefined;
    }
    return key.export({ format: 'pem', type: 'pkcs8' }).toString();
  }

  /** A public key, normalised to SPKI PEM. */
  publicKey(field: string, value: string): string | undefined {
    if (!this.required(field, value)) return undefined;
    const key = value.length <= MAX_PEM_LENGTH ? parsePublicKey(value) : undefined;
    if (!key) {
      this.add(field, domainMessage('credentialFields.notPublicKey'));
      return undefined;
    }
    const problem = rsaProblem(key);
    if (problem) {
      this.add(field, problem);
      return undefined;
    }
    return key.export({ format: 'pem', type: 'spki' }).toString();
  }

  certificate(field: string, value: string, now: Date): string | undefined {
    if (!this.required(field, value)) return undefined;
    let certificate: X509Certificate;
    try {
      if (value.length > MAX_PEM_LENGTH || !value.includes('-----BEGIN CERTIFICATE-----')) throw new Error('not PEM');
      certificate = new X509Certificate(value);
    } catch {
      this.add(field, domainMessage('credentialFields.notCertificate'));
      return undefined;
    }
    const problem = rsaProblem(certificate.publicKey);
    if (problem) {
      this.add(field, domainMessage('credentialFields.certificateKey', { problem }));
      return undefined;
    }
    if (new Date(certificate.validTo).getTime() < now.getTime()) {
      this.add(field, domainMessage('credentialFields.certificateExpired', { validTo: new Date(certificate.validTo).toISOString() }));
      return undefined;
    }
    return certificate.toString();
  }

  matches(field: string, value: string, pattern: RegExp, problem: DomainMessage): string | undefined {
    if (!this.required(field, value)) return undefined;
    if (!pattern.test(value)) {
      this.add(field, problem);
      return undefined;
    }
    return value;
  }

  throwIfAny() {
    if (Object.keys(this.errors).length > 0) throw invalidCredential(this.errors);
  }
}
