import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleSandboxWechatApi } from '../../sandbox/wechat/http-api';
import { aMerchant, receivingAddresses } from '../../test/factories';
import { contractSignature } from '../../test/beds/contract-signer';
import { serveWebHandler } from '../../test/web-handler-server';
import { startSandboxTestBed } from '../../test/beds/sandboxes';
import { addSandboxCredential } from '../cli/credential-add-command';
import { getDb } from '../db/client';

/**
 * The README's open-API examples, one per channel, sent as a newcomer would send them (the merchant's AppID in place
 * of $APP_ID, signed by the test's own signer): each is accepted and answers with the fields the README shows.
 */
const readme = readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');

interface Example {
  endpoint: 'submit' | 'query';
  fields: Record<string, string>;
  shown: { code: number; message: string; data: Record<string, unknown> };
}

function readmeExamples(appId: string): Example[] {
  const lines = readme.split('\n');
  const examples: Example[] = [];
  lines.forEach((line, index) => {
    const command = /^(submit|query) '(.+)'$/.exec(line);
    if (!command) return;
    const shown = /^# (\{.+\})$/.exec(lines[index + 1] ?? '');
    expect(shown, `the README shows the answer to: ${line}`).toBeTruthy();
    examples.push({
      endpoint: command[1] as Example['endpoint'],
      fields: JSON.parse(command[2]!.replaceAll(`"'$APP_ID'"`, JSON.stringify(appId))),
      shown: JSON.parse(shown![1]!),
    });
  });
  return examples;
}

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let wechat: Awaited<ReturnType<typeof serveWebHandler>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;

beforeAll(async () => {
  bed = await startSandboxTestBed();
  wechat = await serveWebHandler((request, segments) => handleSandboxWechatApi(request, segments, getDb()), '/sandbox/wechat');
  process.env.WECHAT_API_BASE_URL = wechat.url;
  merchant = await aMerchant();
  await receivingAddresses(1);
  for (const channel of ['ALIPAY', 'WECHAT'] as const) {
    await addSandboxCredential(getDb(), { appId: merchant.appId, channel, approve: true, enable: true, actor: 'test' });
  }
});
afterAll(async () => {
  await wechat?.close();
  await bed?.close();
});

describe('README examples', () => {
  it('show one submit per channel, each with its own amount field (and channel for YHT)', () => {
    const submits = readmeExamples(merchant.appId).filter((example) => example.endpoint === 'submit');
    const byChannel = new Map(submits.map((example) => [example.fields.payType ?? 'USDT', example.fields]));
    expect([...byChannel.keys()].sort()).toEqual(['ALIPAY', 'USDT', 'WECHAT', 'YHT']);
    expect(byChannel.get('USDT')).toHaveProperty('pay_usdt');
    expect(byChannel.get('ALIPAY')).toHaveProperty('amount');
    expect(byChannel.get('WECHAT')).toHaveProperty('amount');
    expect(byChannel.get('YHT')).toMatchObject({ channel: 'YHT', payMoney: expect.any(String) });
  });

  it('are accepted in the order shown, and answer with the fields the README shows', async () => {
    const examples = readmeExamples(merchant.appId);
    expect(examples.length).toBeGreaterThanOrEqual(6);
    for (const example of examples) {
      const { json } = await bed.app.post(`/v1/api/open/order/${example.endpoint}`, { ...example.fields, signature: contractSignature(example.fields, merchant.appSecret) });
      const label = `${example.endpoint} ${example.fields.merchantOrderNo}`;
      expect(json, label).toMatchObject({ code: example.shown.code, message: example.shown.message });
      expect(Object.keys(json.data).sort(), label).toEqual(Object.keys(example.shown.data).sort());
      for (const [name, value] of Object.entries(example.shown.data)) {
        if (typeof value === 'string' && value.includes('…')) continue; // generated (order numbers, links)
        if (name === 'credentialId') continue; // the id the database gave the credential
        expect(json.data[name], `${label} ${name}`).toEqual(value);
      }
    }
  });
});
