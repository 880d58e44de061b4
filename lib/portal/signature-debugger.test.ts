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
  it('shows the signed text without empty fields and a match', async () => {
    const body = JSON.stringify({ merchantOrderNo: 'A1', amount: '12.50', attach: '', redirectUrl: null, appId: 'mch_1', signature: '27b99172bbfd27f7898b50530d9906fd' });
    const result = debugSignature({ body, appSecret: SECRET });
    expect(result).toMatchObject({
      signedText: 'amount=12.50&appId=mch_1&merchantOrderNo=A1&appsecret=<AppSecret>',
      droppedFields: ['attach', 'redirectUrl'],
      verdict: 'match',
    });
    expect(await hintText(result)).toContain('hex case does not matter');
  });

  it('checks numbers as their JSON text', () => {
    expect(debugSignature({ body: '{"appId":"mch_1","n":5,"x":12.5,"enabled":true,"signature":"80435C3A7E3CCDF56E67BB1EDE629173"}', appSecret: 'k' }).verdict).toBe('match');
  });

  it('never gives out the signature it expects: not for a body without one, nor for a wrong or mistaken one', () => {
    const fields = { appId: 'mch_1', merchantOrderNo: 'R1', refundAmount: '1.00', amount: '' };
    const valid = md5('appId=mch_1&merchantOrderNo=R1&refundAmount=1.00&appsecret=s3cret');
    const wrong = [undefined, '', '0'.repeat(32), md5('amount=&appId=mch_1&merchantOrderNo=R1&refundAmount=1.00&appsecret=s3cret'), valid.toLowerCase().slice(0, 31)];
    for (const signature of wrong) {
      const result = debugSignature({ body: JSON.stringify({ ...fields, signature }), appSecret: SECRET });
      expect(result.verdict).not.toBe('match');
      expect(JSON.stringify(result).toUpperCase(), String(signature)).not.toContain(valid);
    }
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

  it('spots a case-insensitive sort, a missing signature and an unreadable body', async () => {
    const sorted = debugSignature({ body: JSON.stringify({ b: '3', a: '1', B: '2', signature: md5('a=1&b=3&B=2&appsecret=k') }), appSecret: 'k' });
    expect(await hintText(sorted)).toContain('sorted ignoring case');
    expect(debugSignature({ body: '{"appId":"mch_1"}', appSecret: SECRET }).verdict).toBe('no-signature');
    expect(debugSignature({ body: '{"appId":{"x":1}}', appSecret: SECRET })).toMatchObject({ verdict: 'unreadable', parseError: 'appId must be a string, not an object' });
    expect(debugSignature({ body: 'nope', appSecret: SECRET }).verdict).toBe('unreadable');
  });
});
