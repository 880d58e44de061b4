import { describe, expect, it } from 'vitest';
import { sign, signingText, verifySignature } from './sign';

// Expected digests computed outside this code base with `printf '%s' TEXT | md5sum`, upper-cased.
describe('signing (contract: Authentication, item 3)', () => {
  it('sorts by name, drops signature and empty values, appends the secret', () => {
    const fields = { merchantOrderNo: 'A1', signature: 'IGNORED', amount: '12.50', attach: '', redirectUrl: null, appId: 'mch_1', note: undefined };
    expect(signingText(fields, 's3cret')).toBe('amount=12.50&appId=mch_1&merchantOrderNo=A1&appsecret=s3cret');
    expect(sign(fields, 's3cret')).toBe('27B99172BBFD27F7898B50530D9906FD');
  });

  it('sorts case-sensitively in ASCII order (upper case before lower case)', () => {
    expect(signingText({ b: '3', a: '1', B: '2' }, 'k')).toBe('B=2&a=1&b=3&appsecret=k');
    expect(sign({ b: '3', a: '1', B: '2' }, 'k')).toBe('A4675D8D153EFEFA428D3867F86F4ACE');
  });

  it('sorts names by their UTF-8 bytes, where characters beyond the BMP come after every other', () => {
    expect(signingText({ '\u{1F600}': '3', '\uFFFD': '2', é: '1', z: '0' }, 'k')).toBe('z=0&é=1&\uFFFD=2&\u{1F600}=3&appsecret=k');
  });

  it('signs numbers and booleans as their JSON text', () => {
    expect(sign({ appId: 'mch_1', n: '5', x: '12.5', enabled: 'true' }, 'k')).toBe('80435C3A7E3CCDF56E67BB1EDE629173');
  });

  it('hashes UTF-8 raw values, not URL-encoded ones', () => {
    expect(sign({ appId: 'mch_1', productName: '商品' }, '密钥')).toBe('FE5D92E4625EDAA476D1ADB56ABE2769');
  });

  it('verifies case-insensitively and rejects other digests, lengths and secrets', () => {
    const fields = { appId: 'mch_1', amount: '12.50', merchantOrderNo: 'A1' };
    expect(verifySignature(fields, 's3cret', '27b99172bbfd27f7898b50530d9906fd')).toBe(true);
    expect(verifySignature(fields, 's3cret', '27B99172BBFD27F7898B50530D9906FE')).toBe(false);
    expect(verifySignature(fields, 's3cret', '27B99172')).toBe(false);
    expect(verifySignature(fields, 'other', '27B99172BBFD27F7898B50530D9906FD')).toBe(false);
    expect(verifySignature({ ...fields, extra: 'x' }, 's3cret', '27B99172BBFD27F7898B50530D9906FD')).toBe(false);
  });
});
