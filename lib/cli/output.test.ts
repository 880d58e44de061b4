import { describe, expect, it } from 'vitest';
import { validateAlipayCredential } from '../channels/alipay/credentials';
import { actionRefused } from '../errors/domain-error';
import { domainMessage } from '../errors/domain-message';
import { EXIT_INPUT_ERROR } from './command';
import { reportError } from './output';

function captured() {
  const out = { stdout: '', stderr: '' };
  return { out, streams: { stdout: (text: string) => void (out.stdout += text), stderr: (text: string) => void (out.stderr += text) } };
}

function refusalOf(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

describe('the CLI reports a refusal', () => {
  it('in English, naming each bad field, with no other language beside it', () => {
    const { out, streams } = captured();
    const refused = refusalOf(() => validateAlipayCredential({ appId: '12', appPrivateKey: '', alipayPublicKey: '' }));
    expect(reportError(streams, true, refused)).toBe(EXIT_INPUT_ERROR);
    const expected = 'App ID: must be the 16-digit Alipay app id; App private key: required; Alipay public key: required';
    expect(JSON.parse(out.stdout)).toEqual({ error: { kind: 'rejected', message: expected } });
    expect(out.stderr).toBe(`error: ${expected}\n`);
    expect(out.stderr).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it('by the English message, never by what a merchant form would translate', () => {
    const { out, streams } = captured();
    reportError(streams, false, actionRefused('only a paid order has a notification to re-send', domainMessage('orders.resendNeedsPaid')));
    expect(out.stderr).toBe('error: only a paid order has a notification to re-send\n');
  });
});
