import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { areaTranslator } from '../i18n/area-translator';
import { debugSignature, type SignatureDebugResult } from './signature-debugger';
import { signatureHintValues } from './signature-hints';

// Expected digests as in lib/signing/sign.test.ts (computed with md5sum outside this code base).
const SECRET = 's3cret';
const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex').toUpperCase();

/** The hints as the English page words them. */
async function hintText(result: SignatureDebugResult): Promise<string> {
  const t = await areaTranslator('en', 'portal');
  return result.hints.map((hint) => t(`signature.hints.${hint.code}`, signatureHintValues(hint))).join('\n');
}

describe('signature debugger', () => {
  it('shows the signed text without empty fields, the expected signature and a match', async () => {
    const body = JSON.stringify({ merchantOrderNo: 'A1', amount: '12.50', attach: '', redirectUrl: null, appId: 'mch_1', signature: '27b99172bbfd27f7898b50530d9906fd' });
    const result = debugSignature({ body, appSecret: SECRET, currentSecret: SECRET });
    expect(result).toMatchObject({
      signedText: 'amount=12.50&appId=mch_1&merchantOrderNo=A1&appsecret=<AppSecret>',
      expected: '27B99172BBFD27F7898B50530D9906FD',
      droppedFields: ['attach', 'redirectUrl'],
      verdict: 'match',
    });
    expect(await hintText(result)).toContain('hex case does not matter');
  });

  it('signs numbers as their JSON text', () => {
    expect(debugSignature({ body: '{"appId":"mch_1","n":5,"x":12.5,"enabled":true}', appSecret: 'k' }).expected).toBe('80435C3A7E3CCDF56E67BB1EDE629173');
  });

  it('names the mistake that produced a wrong signature', async () => {
    const fields = { appId: 'mch_1', merchantOrderNo: 'A1', amount: '12.50', attach: '', productName: '商品 1' };
    const cases: [string, string][] = [
      ['amount=12.50&appId=mch_1&attach=&merchantOrderNo=A1&productName=商品 1&appsecret=s3cret', 'includes empty fields'],
      [`amount=12.50&appId=mch_1&merchantOrderNo=A1&productName=${encodeURIComponent('商品 1')}&appsecret=s3cret`, 'URL-encoded'],
      ['amount=12.50&appId=mch_1&merchantOrderNo=A1&productName=商品 1&key=s3cret', 'not "&key="'],
      ['amount=12.50&appId=mch_1&merchantOrderNo=A1&productName=商品 1', 'leaves the AppSecret out'],
    ];
    for (const [text, hint] of cases) {
      const result = debugSignature({ body: JSON.stringify({ ...fields, signature: md5(text) }), appSecret: SECRET });
      expect(result.verdict).toBe('mismatch');
      expect(await hintText(result)).toContain(hint);
    }
  });

  it('spots a case-insensitive sort, an old secret, a missing signature and an unreadable body', async () => {
    const sorted = debugSignature({ body: JSON.stringify({ b: '3', a: '1', B: '2', signature: md5('a=1&b=3&B=2&appsecret=k') }), appSecret: 'k' });
    expect(await hintText(sorted)).toContain('sorted ignoring case');
    expect(await hintText(debugSignature({ body: '{"appId":"mch_1"}', appSecret: 'old', currentSecret: 'new' }))).toContain('not your current AppSecret');
    expect(debugSignature({ body: '{"appId":"mch_1"}', appSecret: SECRET }).verdict).toBe('no-signature');
    expect(debugSignature({ body: '{"appId":{"x":1}}', appSecret: SECRET })).toMatchObject({ verdict: 'unreadable', parseError: 'appId must be a string, not an object' });
    expect(debugSignature({ body: 'nope', appSecret: SECRET }).verdict).toBe('unreadable');
  });
});
