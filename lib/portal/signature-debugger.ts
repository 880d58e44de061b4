import { createHash, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../errors/domain-error';
import { MAX_BODY_BYTES, parseRequestFields } from '../validation/request-fields';
import type { Database } from '../db/client';
import { sign, signingText, type SignableFields } from '../signing';
import { currentAppSecret } from './interface-keys';
import type { MerchantContext } from './merchant-context';
import type { SignatureHint } from './signature-hints';

/**
 * What the debugger tells the merchant. Never the signature the service expects: with it, a signed-in session alone
 * (no AppSecret, no password) could sign any request (an order, a refund). It compares the signature the body
 * carries and names the rule that differs.
 */
export interface SignatureDebugResult {
  /** The body could not be read as the open API reads it (the request would get 1003). */
  parseError?: string;
  /** The text that is hashed, with the AppSecret shown as `<AppSecret>`. */
  signedText?: string;
  droppedFields: string[];
  given?: string;
  verdict: 'match' | 'mismatch' | 'no-signature' | 'unreadable';
  hints: SignatureHint[];
}

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex').toUpperCase();

function sameText(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
}

/** Signed-text variants built the way merchants commonly get the algorithm wrong, each with what to fix. */
function commonMistakes(fields: SignableFields, appSecret: string): { signature: string; hint: SignatureHint }[] {
  const names = Object.keys(fields).filter((name) => name !== 'signature');
  const nonEmpty = names.filter((name) => fields[name] !== undefined && fields[name] !== null && fields[name] !== '');
  const ascii = [...nonEmpty].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const join = (list: string[], value: (name: string) => string) => list.map((name) => `${name}=${value(name)}`).join('&');
  const raw = (name: string) => String(fields[name] ?? '');
  return [
    {
      signature: md5(`${join([...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))), raw)}&appsecret=${appSecret}`),
      hint: { code: 'emptyFieldsSigned' },
    },
    {
      signature: md5(`${join([...nonEmpty].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())), raw)}&appsecret=${appSecret}`),
      hint: { code: 'sortedIgnoringCase' },
    },
    {
      signature: md5(`${join(ascii, (name) => encodeURIComponent(raw(name)))}&appsecret=${appSecret}`),
      hint: { code: 'urlEncoded' },
    },
    {
      signature: md5(`${join(ascii, raw)}&key=${appSecret}`),
      hint: { code: 'keyInsteadOfAppsecret' },
    },
    {
      signature: md5(`${join(ascii, raw)}${appSecret}`),
      hint: { code: 'appendedDirectly' },
    },
    {
      signature: md5(`${join(ascii, raw)}`),
      hint: { code: 'secretLeftOut' },
    },
  ];
}

/**
 * Shows a merchant how the service reads and checks a request body: the signed text (empty fields dropped), whether
 * the body's signature matches, and when it does not, which rule it breaks (what would have produced it). Pure; the
 * AppSecret is the merchant's current one, read on the server. The expected signature is computed here but never
 * returned (see SignatureDebugResult).
 */
export function debugSignature(input: { body: string; appSecret: string }): SignatureDebugResult {
  let fields: Record<string, string | undefined>;
  try {
    fields = { ...parseRequestFields(input.body) };
  } catch (error) {
    if (error instanceof DomainError) {
      return { parseError: error.message, droppedFields: [], verdict: 'unreadable', hints: [{ code: 'unreadable' }] };
    }
    throw error;
  }
  const hints: SignatureHint[] = [];
  const appSecret = input.appSecret;
  const droppedFields = Object.keys(fields).filter((name) => name !== 'signature' && (fields[name] === undefined || fields[name] === ''));
  const signedText = signingText(fields, '\u0000').replace(/&appsecret=\u0000$/, '&appsecret=<AppSecret>');
  const given = fields.signature;

  if (!fields.appId) hints.push({ code: 'appIdMissing' });
  if (Object.keys(fields).some((name) => name.toLowerCase() === 'appsecret')) {
    hints.push({ code: 'secretAsField' });
  }
  const spaced = Object.keys(fields).filter((name) => name !== 'signature' && fields[name] !== undefined && fields[name] !== fields[name]!.trim());
  if (spaced.length > 0) hints.push({ code: 'spacedValues', fields: spaced });
  if (droppedFields.length > 0) hints.push({ code: 'emptyLeftOut', fields: droppedFields });

  if (!given) {
    hints.push({ code: 'noSignature' });
    return { signedText, droppedFields, verdict: 'no-signature', hints };
  }
  if (sameText(given.toUpperCase(), sign(fields, appSecret))) {
    if (given !== given.toUpperCase()) hints.push({ code: 'lowerCaseAccepted' });
    return { signedText, droppedFields, given, verdict: 'match', hints };
  }
  const mistake = commonMistakes(fields, appSecret).find((variant) => sameText(variant.signature, given.toUpperCase()));
  hints.push(mistake ? mistake.hint : { code: 'differs' });
  if (given.length !== 32) hints.push({ code: 'notMd5Length' });
  return { signedText, droppedFields, given, verdict: 'mismatch', hints };
}

/**
 * The debugger for a signed-in merchant, with the merchant's current AppSecret read here: the browser never sends it
 * (a secret in a request's arguments ends up in logs and traces), and it never gets a signature made with it.
 */
export async function debugMerchantSignature(db: Database, context: MerchantContext, input: { body: string }): Promise<SignatureDebugResult> {
  if (Buffer.byteLength(input.body, 'utf8') > MAX_BODY_BYTES) {
    return { parseError: 'request body is over 64 KiB', droppedFields: [], verdict: 'unreadable', hints: [] };
  }
  return debugSignature({ body: input.body, appSecret: await currentAppSecret(db, context) });
}
