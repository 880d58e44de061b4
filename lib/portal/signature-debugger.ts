import { createHash, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../errors/domain-error';
import { MAX_BODY_BYTES, parseRequestFields } from '../validation/request-fields';
import type { Database } from '../db/client';
import { sign, signingText, type SignableFields } from '../signing';
import { currentAppSecret } from './interface-keys';
import type { MerchantContext } from './merchant-context';

export interface SignatureDebugResult {
  /** The body could not be read as the open API reads it (the request would get 1003). */
  parseError?: string;
  /** The text that is hashed, with the AppSecret shown as `<AppSecret>`. */
  signedText?: string;
  droppedFields: string[];
  expected?: string;
  given?: string;
  verdict: 'match' | 'mismatch' | 'no-signature' | 'unreadable';
  hints: string[];
}

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex').toUpperCase();

function sameText(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
}

/** Signed-text variants built the way merchants commonly get the algorithm wrong, each with what to fix. */
function commonMistakes(fields: SignableFields, appSecret: string): { signature: string; hint: string }[] {
  const names = Object.keys(fields).filter((name) => name !== 'signature');
  const nonEmpty = names.filter((name) => fields[name] !== undefined && fields[name] !== null && fields[name] !== '');
  const ascii = [...nonEmpty].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const join = (list: string[], value: (name: string) => string) => list.map((name) => `${name}=${value(name)}`).join('&');
  const raw = (name: string) => String(fields[name] ?? '');
  return [
    {
      signature: md5(`${join([...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))), raw)}&appsecret=${appSecret}`),
      hint: 'Your signature includes empty fields. Leave out fields whose value is "", null or absent. / 签名串包含了空值字段，空值字段不参与签名。',
    },
    {
      signature: md5(`${join([...nonEmpty].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())), raw)}&appsecret=${appSecret}`),
      hint: 'Your fields were sorted ignoring case. Sort by ASCII byte order: upper case before lower case. / 字段需按 ASCII 排序（大写字母在小写之前）。',
    },
    {
      signature: md5(`${join(ascii, (name) => encodeURIComponent(raw(name)))}&appsecret=${appSecret}`),
      hint: 'Your values were URL-encoded. Sign the raw values (UTF-8), not encoded ones. / 签名使用原始值（UTF-8），不要 URL 编码。',
    },
    {
      signature: md5(`${join(ascii, raw)}&key=${appSecret}`),
      hint: 'The secret is appended as "&appsecret=<AppSecret>", not "&key=". / 密钥以 "&appsecret=" 拼接，而不是 "&key="。',
    },
    {
      signature: md5(`${join(ascii, raw)}${appSecret}`),
      hint: 'The secret is appended as "&appsecret=<AppSecret>", not directly. / 密钥需以 "&appsecret=" 拼接。',
    },
    {
      signature: md5(`${join(ascii, raw)}`),
      hint: 'Your signature leaves the AppSecret out. Append "&appsecret=<AppSecret>". / 签名串缺少 "&appsecret=<AppSecret>"。',
    },
  ];
}

/**
 * Shows a merchant how the service reads and signs a request body: the signed text (empty fields dropped), the
 * expected signature, and hints when the given one differs (what would have produced it, a secret that is not the
 * current one). Pure; the AppSecret is the one the merchant typed, compared with the current one when given.
 */
export function debugSignature(input: { body: string; appSecret: string; currentSecret?: string }): SignatureDebugResult {
  let fields: Record<string, string | undefined>;
  try {
    fields = { ...parseRequestFields(input.body) };
  } catch (error) {
    if (error instanceof DomainError) {
      return { parseError: error.message, droppedFields: [], verdict: 'unreadable', hints: ['The service answers this body with 1003 before checking the signature. / 该请求体会直接返回 1003。'] };
    }
    throw error;
  }
  const hints: string[] = [];
  const appSecret = input.appSecret;
  const droppedFields = Object.keys(fields).filter((name) => name !== 'signature' && (fields[name] === undefined || fields[name] === ''));
  const expected = sign(fields, appSecret);
  const signedText = signingText(fields, '\u0000').replace(/&appsecret=\u0000$/, '&appsecret=<AppSecret>');
  const given = fields.signature;

  if (input.currentSecret !== undefined && !sameText(appSecret, input.currentSecret)) {
    hints.push('This is not your current AppSecret (was it rotated?). Requests signed with it get 1002. / 这不是当前的 AppSecret（是否已重置？），用它签名会返回 1002。');
  }
  if (appSecret !== appSecret.trim()) hints.push('The AppSecret you entered has spaces around it. / 输入的 AppSecret 前后有空格。');
  if (!fields.appId) hints.push('appId is missing: the service cannot tell whose secret to use (1003). / 缺少 appId。');
  if (Object.keys(fields).some((name) => name.toLowerCase() === 'appsecret')) {
    hints.push('Do not send the AppSecret as a field; it is only appended to the signed text. / 不要把 AppSecret 作为字段发送。');
  }
  const spaced = Object.keys(fields).filter((name) => name !== 'signature' && fields[name] !== undefined && fields[name] !== fields[name]!.trim());
  if (spaced.length > 0) hints.push(`These values have leading or trailing spaces, which are signed as they are: ${spaced.join(', ')}. / 这些值前后有空格，会原样参与签名。`);
  if (droppedFields.length > 0) hints.push(`Left out of the signed text because they are empty: ${droppedFields.join(', ')}. / 空值字段不参与签名。`);

  if (!given) {
    hints.push('No signature field: add "signature" with the expected value below. / 缺少 signature 字段。');
    return { signedText, droppedFields, expected, verdict: 'no-signature', hints };
  }
  if (given.toUpperCase() === expected) {
    if (given !== expected) hints.push('Accepted: hex case does not matter, but upper case is the documented form. / 大小写不敏感，但文档要求大写。');
    return { signedText, droppedFields, expected, given, verdict: 'match', hints };
  }
  const mistake = commonMistakes(fields, appSecret).find((variant) => variant.signature === given.toUpperCase());
  hints.push(mistake ? mistake.hint : 'The signature differs: compare your signed text with the one above, byte for byte. / 签名不一致，请逐字节对比签名串。');
  if (given.length !== 32) hints.push('A signature is 32 hexadecimal characters (MD5). / 签名应为 32 位十六进制（MD5）。');
  return { signedText, droppedFields, expected, given, verdict: 'mismatch', hints };
}

/** The debugger for a signed-in merchant: the secret is the one typed, compared with (never replaced by) the current one. */
export async function debugMerchantSignature(db: Database, context: MerchantContext, input: { body: string; appSecret: string }): Promise<SignatureDebugResult> {
  if (Buffer.byteLength(input.body, 'utf8') > MAX_BODY_BYTES) {
    return { parseError: 'request body is over 64 KiB', droppedFields: [], verdict: 'unreadable', hints: [] };
  }
  return debugSignature({ body: input.body, appSecret: input.appSecret, currentSecret: await currentAppSecret(db, context) });
}
