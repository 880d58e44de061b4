import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A passkey authenticator for the tests, written from the WebAuthn Level 3 specification (authenticator data,
 * attestation object with the "none" format, assertion signatures) and RFC 8949 (CBOR) / RFC 9053 (COSE EC2 keys),
 * apart from the library the service verifies with: what a browser and a platform authenticator send, made by hand.
 */

function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  const head = Buffer.alloc(3);
  head[0] = (major << 5) | 25;
  head.writeUInt16BE(length, 1);
  return head;
}

type Cbor = number | string | Buffer | Map<Cbor, Cbor>;

function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([cborHead(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (Buffer.isBuffer(value)) return Buffer.concat([cborHead(2, value.length), value]);
  return Buffer.concat([cborHead(5, value.size), ...[...value].flatMap(([key, item]) => [cbor(key), cbor(item)])]);
}

const b64url = (bytes: Buffer) => bytes.toString('base64url');
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_DATA = 0x40;

export interface SoftwarePasskeyOptions {
  /** The origin the "browser" writes into its client data (a phishing page's, say). */
  origin: string;
  /** Whether the authenticator says it verified its person (PIN or biometrics). */
  userVerified?: boolean;
}

/** One credential on a software authenticator: made by `create`, used by `get`, its counter moving on each use. */
export class SoftwarePasskey {
  readonly credentialId = randomBytes(16);
  private readonly keys: { privateKey: KeyObject; publicKey: KeyObject } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  private userHandle = Buffer.alloc(0);
  signCount = 0;

  constructor(private readonly settings: SoftwarePasskeyOptions) {}

  private authenticatorData(rpId: string, flags: number, attested?: Buffer): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.signCount);
    const verified = this.settings.userVerified === false ? 0 : FLAG_USER_VERIFIED;
    return Buffer.concat([sha256(rpId), Buffer.from([flags | FLAG_USER_PRESENT | verified]), counter, ...(attested ? [attested] : [])]);
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.settings.origin, crossOrigin: false }));
  }

  /** navigator.credentials.create's answer (RegistrationResponseJSON) to the service's creation options. */
  create(options: { challenge: string; rp: { id?: string }; user: { id: string } }) {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    const coseKey = new Map<Cbor, Cbor>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, cbor(coseKey)]);
    this.userHandle = Buffer.from(options.user.id, 'base64url');
    const authData = this.authenticatorData(options.rp.id ?? new URL(this.settings.origin).hostname, FLAG_ATTESTED_DATA, attested);
    const attestationObject = cbor(new Map<Cbor, Cbor>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    return {
      id: b64url(this.credentialId),
      rawId: b64url(this.credentialId),
      type: 'public-key',
      response: { clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge)), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get's answer (AuthenticationResponseJSON) to the service's request options. */
  get(options: { challenge: string; rpId?: string }) {
    this.signCount += 1;
    const authData = this.authenticatorData(options.rpId ?? new URL(this.settings.origin).hostname, 0);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.keys.privateKey);
    return {
      id: b64url(this.credentialId),
      rawId: b64url(this.credentialId),
      type: 'public-key',
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(signature), userHandle: b64url(this.userHandle) },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
