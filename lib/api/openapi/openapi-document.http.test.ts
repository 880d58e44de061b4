import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aMerchant, receivingAddresses } from '../../../test/factories';
import { contractSignature } from '../../../test/beds/contract-signer';
import { startSandboxTestBed } from '../../../test/beds/sandboxes';
import { serveWebHandler } from '../../../test/web-handler-server';
import { handleSandboxWechatApi } from '../../../sandbox/wechat/http-api';
import { addSandboxCredential } from '../../cli/credential-add-command';
import { getDb } from '../../db/client';
import { DOCUMENTED_ERRORS } from './error-catalogue';
import { PLACEHOLDER_APP_ID, PLACEHOLDER_APP_SECRET } from '../../contract/examples';

const DOCUMENT = '/v1/api/open/openapi.json';
const root = path.resolve(import.meta.dirname, '../../..');
const openApiDoc = readFileSync(path.join(root, 'docs/open-api.md'), 'utf8');
/** The interface this service implements, as the project publishes it to merchants. */
const contract = readFileSync(path.join(root, 'docs/merchant-api.md'), 'utf8');

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;
let document: any;
let documentText: string;

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await aMerchant();
  await receivingAddresses(2);
  const response = await fetch(`${bed.app.baseUrl}${DOCUMENT}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  documentText = await response.text();
  document = JSON.parse(documentText);
});
afterAll(() => bed.close());

/** A documented example with the test merchant's AppID, re-signed with its secret by the test's own MD5 signer. */
function asMerchant(example: Record<string, string>): Record<string, string> {
  const fields: Record<string, string> = { ...example, appId: merchant.appId };
  delete fields.signature;
  return { ...fields, signature: contractSignature(fields, merchant.appSecret) };
}

function requestExample(pathName: string, name: string): Record<string, string> {
  return document.paths[pathName].post.requestBody.content['application/json'].examples[name].value;
}

describe('GET /v1/api/open/openapi.json', () => {
  it('is an OpenAPI 3.1 document with the submit, query and close paths and the notification webhooks', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual(['/v1/api/open/openapi.json', '/v1/api/open/order/close', '/v1/api/open/order/query', '/v1/api/open/order/submit', '/v1/api/open/refund/query', '/v1/api/open/refund/submit']);
    expect(document.webhooks.orderPaid.post.requestBody.content['application/x-www-form-urlencoded']).toBeDefined();
    expect(document.webhooks.orderClosedOrExpired.post.requestBody.content['application/x-www-form-urlencoded'].schema).toEqual({ $ref: '#/components/schemas/CloseNotice' });
    expect(document.info.description).toContain('&appsecret=');
    expect(document.components.schemas.UsdtSubmitRequest.properties.signature).toBeDefined();
  });

  it('describes the optional clientIp of the fiat submits, and that WECHAT h5 merchants must send it', () => {
    for (const name of ['AlipaySubmitRequest', 'WechatSubmitRequest', 'YhtSubmitRequest']) {
      const schema = document.components.schemas[name];
      expect(schema.properties.clientIp, name).toMatchObject({ type: 'string', description: expect.stringContaining('IPv4 or IPv6') });
      expect(schema.required, name).not.toContain('clientIp');
    }
    expect(document.components.schemas.WechatSubmitRequest.properties.clientIp.description).toMatch(/WECHAT `h5` merchants must send it/);
  });

  it('has every open-API path of docs/open-api.md and docs/merchant-api.md', () => {
    const paths = new Set([...`${openApiDoc}\n${contract}`.matchAll(/\/v1\/api\/open\/[A-Za-z0-9/_.-]*[A-Za-z0-9]/g)].map((match) => match[0]));
    expect(paths.size).toBeGreaterThan(0);
    for (const documented of paths) expect(Object.keys(document.paths), documented).toContain(documented);
  });

  it('has every error code of docs/open-api.md and docs/merchant-api.md, with its fixed messages', () => {
    const codes = new Set([...`${openApiDoc}\n${contract}`.matchAll(/\b10[01]\d\b/g)].map((match) => Number(match[0])));
    for (const code of [1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011]) expect(codes).toContain(code);
    const listed = document.components.schemas.ErrorEnvelope['x-error-codes'] as { code: number; message: string }[];
    for (const code of codes) {
      expect(document.components.schemas.ErrorEnvelope.properties.code.enum, `code ${code}`).toContain(code);
      expect(listed.some((entry) => entry.code === code)).toBe(true);
      expect(document.info.description).toContain(`| ${code} |`);
    }
    // The fixed messages of docs/merchant-api.md (its "Errors" table: `| code | \`message\` | when |`).
    const fixed = [...contract.matchAll(/^\| (1\d{3}) \| `([^`|]+)` \|/gm)];
    expect(fixed.length).toBeGreaterThanOrEqual(9);
    for (const [, code, message] of fixed) {
      expect(listed).toContainEqual(expect.objectContaining({ code: Number(code), message: message!.trim() }));
    }
    expect(DOCUMENTED_ERRORS.length).toBe(listed.length);
  });

  it('names in docs/merchant-api.md every field of its examples and of every schema it publishes', () => {
    const schemas = document.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
    const fieldNames = new Set(Object.values(schemas).flatMap((schema) => Object.keys(schema.properties ?? {})));
    expect(fieldNames.size).toBeGreaterThan(20);
    for (const name of fieldNames) {
      if (['code', 'message', 'data'].includes(name)) continue; // the envelope, described in prose
      expect(contract, name).toContain(`\`${name}\``);
    }
  });

  it('signs every example correctly with the placeholder secret (never a real one)', () => {
    const examples = [
      ...Object.values(document.paths['/v1/api/open/order/submit'].post.requestBody.content['application/json'].examples),
      ...Object.values(document.paths['/v1/api/open/order/query'].post.requestBody.content['application/json'].examples),
      ...Object.values(document.paths['/v1/api/open/order/close'].post.requestBody.content['application/json'].examples),
      ...Object.values(document.webhooks.orderPaid.post.requestBody.content['application/x-www-form-urlencoded'].examples),
    ] as { value: Record<string, string> }[];
    expect(examples.length).toBeGreaterThanOrEqual(7);
    for (const { value } of examples) {
      expect(value.appId).toBe(PLACEHOLDER_APP_ID);
      expect(value.signature).toBe(contractSignature(value, PLACEHOLDER_APP_SECRET));
    }
    expect(documentText).not.toContain(merchant.appSecret);
  });

  it('its USDT submit and query examples, signed for a real merchant, are accepted (code 0)', async () => {
    const submitted = await bed.app.post('/v1/api/open/order/submit', asMerchant(requestExample('/v1/api/open/order/submit', 'usdt')));
    expect(submitted.json).toMatchObject({ code: 0, message: 'success', data: { merchantOrderNo: requestExample('/v1/api/open/order/submit', 'usdt').merchantOrderNo } });
    const schema = document.components.schemas.UsdtCreateData;
    expect(Object.keys(submitted.json.data).sort()).toEqual([...schema.required].sort());

    const queried = await bed.app.post('/v1/api/open/order/query', asMerchant(requestExample('/v1/api/open/order/query', 'usdt')));
    expect(queried.json).toMatchObject({ code: 0, message: 'success', data: { orderNo: submitted.json.data.orderNo, recovered: true } });
    expect(Object.keys(queried.json.data).sort()).toEqual([...document.components.schemas.UsdtQueryData.required].sort());

    const closed = await bed.app.post('/v1/api/open/order/close', asMerchant(requestExample('/v1/api/open/order/close', 'usdt')));
    expect(closed.json).toMatchObject({ code: 0, message: 'success', data: { orderNo: submitted.json.data.orderNo, status: '2' } });
  });

  it('its YHT submit example is accepted (code 0) with the documented fields', async () => {
    const submitted = await bed.app.post('/v1/api/open/order/submit', asMerchant(requestExample('/v1/api/open/order/submit', 'yht')));
    expect(submitted.json).toMatchObject({ code: 0, message: 'success' });
    expect(Object.keys(submitted.json.data).sort()).toEqual([...document.components.schemas.YhtCreateData.required].sort());
  });

  it('its ALIPAY submit and query examples, for a merchant with a usable ALIPAY credential, are accepted with the documented fields', async () => {
    await addSandboxCredential(getDb(), { appId: merchant.appId, channel: 'ALIPAY', approve: true, enable: true, actor: 'test' });
    const submitted = await bed.app.post('/v1/api/open/order/submit', asMerchant(requestExample('/v1/api/open/order/submit', 'alipay')));
    expect(submitted.json).toMatchObject({ code: 0, message: 'ok' });
    expect(Object.keys(submitted.json.data).sort()).toEqual([...document.components.schemas.DirectCreateData.required].sort());
    const queried = await bed.app.post('/v1/api/open/order/query', asMerchant(requestExample('/v1/api/open/order/query', 'alipay')));
    expect(queried.json).toMatchObject({ code: 0, message: 'ok', data: { platformOrderNo: submitted.json.data.platformOrderNo, status: 1 } });
    expect(Object.keys(queried.json.data).sort()).toEqual([...document.components.schemas.DirectQueryData.required].sort());
  });

  it('its WECHAT submit example, for a merchant with a usable WECHAT credential, is accepted with the documented fields', async () => {
    const wechat = await serveWebHandler((request, segments) => handleSandboxWechatApi(request, segments, getDb()), '/sandbox/wechat');
    process.env.WECHAT_API_BASE_URL = wechat.url;
    try {
      await addSandboxCredential(getDb(), { appId: merchant.appId, channel: 'WECHAT', approve: true, enable: true, actor: 'test' });
      const submitted = await bed.app.post('/v1/api/open/order/submit', asMerchant(requestExample('/v1/api/open/order/submit', 'wechat')));
      expect(submitted.json).toMatchObject({ code: 0, message: 'ok' });
      expect(Object.keys(submitted.json.data).sort()).toEqual([...document.components.schemas.DirectCreateData.required].sort());
    } finally {
      await wechat.close();
    }
  });
});
