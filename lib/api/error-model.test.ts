import { describe, expect, it } from 'vitest';
import { OPEN_API_CODES } from './error-codes';
import { DOCUMENTED_ERRORS } from './openapi/error-catalogue';
import { actionRefused, DOMAIN_ERROR_KINDS, DomainError } from '../errors/domain-error';
import { domainMessage } from '../errors/domain-message';
import { merchantFormRefusal, operatorFormRefusal } from '../errors/form-answer';
import { formWords } from '../i18n/form-words';
import { LOCALES } from '../i18n/locales';

describe('one error model', () => {
  it.each(DOMAIN_ERROR_KINDS)('%s has an open-API code and a form message in every language', async (kind) => {
    expect(OPEN_API_CODES[kind]?.code).toBeGreaterThanOrEqual(1000);
    for (const locale of LOCALES) {
      const words = await formWords(locale);
      expect(words.kinds[kind], locale).toMatch(/\S/);
      expect(merchantFormRefusal(new DomainError(kind, { message: 'internal detail' }), words).message).toBe(words.kinds[kind]);
    }
  });

  it('the tables name no kind that is not in the union', async () => {
    expect(Object.keys(OPEN_API_CODES).sort()).toEqual([...DOMAIN_ERROR_KINDS].sort());
    for (const locale of LOCALES) expect(Object.keys((await formWords(locale)).kinds).sort(), locale).toEqual([...DOMAIN_ERROR_KINDS].sort());
  });

  it('the published catalogue lists every code the open API answers, and only those', () => {
    const answered = new Set(Object.values(OPEN_API_CODES).map((entry) => entry.code));
    expect(new Set(DOCUMENTED_ERRORS.map((error) => error.code))).toEqual(new Set([0, ...answered]));
    for (const entry of Object.values(OPEN_API_CODES)) {
      if (entry.message) expect(DOCUMENTED_ERRORS).toContainEqual(expect.objectContaining({ code: entry.code, message: entry.message, exact: true }));
    }
  });

  it('a merchant sees the explanation the domain gave, an operator the detail, each in their language', async () => {
    const [en, zh] = await Promise.all([formWords('en'), formWords('zh-CN')]);
    const refused = new DomainError('not_found', { message: 'credential not found: 7' });
    expect(merchantFormRefusal(refused, en)).toEqual({ ok: false, message: 'Not found.' });
    expect(merchantFormRefusal(refused, zh)).toEqual({ ok: false, message: '未找到。' });
    expect(operatorFormRefusal(refused, zh)).toEqual({ ok: false, message: 'credential not found: 7 (未找到)' });
    const named = new DomainError('action_refused', { message: 'reason: a rejection needs a reason' });
    expect(operatorFormRefusal(named, en)).toEqual({ ok: false, message: 'reason: a rejection needs a reason', fieldErrors: { reason: 'reason: a rejection needs a reason' } });
    // A message that names the address already is not prefixed twice ("Address: address: …").
    const address = new DomainError('invalid_receiving_address', { message: 'address: 0xabc is not an EVM address with a valid EIP-55 checksum' });
    expect(operatorFormRefusal(address, en).message).toMatch(/^[^:]+: 0xabc is not an EVM address/);
  });

  it('a form translates what the error says into its reader’s one language; the English message stays for logs and the CLI', async () => {
    const [en, zh] = await Promise.all([formWords('en'), formWords('zh-CN')]);
    const rejected = new DomainError('password_rejected', {
      message: 'the password is not correct',
      userMessage: domainMessage('accounts.passwordRejected'),
      fieldErrors: { password: domainMessage('accounts.passwordRejectedField') },
    });
    expect(merchantFormRefusal(rejected, en)).toEqual({ ok: false, message: 'The password is not correct.', fieldErrors: { password: 'The password is not correct' } });
    expect(merchantFormRefusal(rejected, zh)).toEqual({ ok: false, message: '密码不正确。', fieldErrors: { password: '密码不正确' } });
    expect(operatorFormRefusal(rejected, zh)).toEqual({ ok: false, message: '密码不正确。', fieldErrors: { password: '密码不正确' } });
    expect(rejected.message).toBe('the password is not correct');

    const throttled = new DomainError('too_many_attempts', { userMessage: domainMessage('accounts.tooManyAttempts', { minutes: 12 }) });
    expect(merchantFormRefusal(throttled, zh).message).toBe('尝试次数过多，请 12 分钟后再试。');
    // An action refused without an explanation for merchants: the merchant reads the kind, the operator the detail.
    const refused = actionRefused('order P1 is not paid: there is nothing to notify');
    expect(merchantFormRefusal(refused, zh).message).toBe(zh.kinds.action_refused);
    expect(operatorFormRefusal(refused, en).message).toBe('order P1 is not paid: there is nothing to notify');
  });
});
