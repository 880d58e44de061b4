import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aMerchant, receivingAddresses, orderCount } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/open-api-client';

let app: TestApp;
let appId: string;

beforeAll(async () => {
  app = await startTestApp();
  appId = (await aMerchant()).appId;
  await receivingAddresses(1);
});
afterAll(() => app.close());


describe.each(['/v1/api/open/order/submit', '/v1/api/open/order/query'])('malformed bodies on %s', (path) => {
  it.each([
    ['not JSON', '{"appId": ', 'request body is not valid JSON'],
    ['empty body', '', 'request body is not valid JSON'],
    ['a JSON array', '[{"appId":"x"}]', 'request body must be a JSON object'],
    ['a JSON string', '"appId"', 'request body must be a JSON object'],
    ['JSON null', 'null', 'request body must be a JSON object'],
    ['a nested object', () => `{"appId":"${appId}","pay_usdt":{"value":"1"}}`, 'pay_usdt must be a string, not an object'],
    ['a nested array', () => `{"appId":"${appId}","merchantOrderNo":["a"]}`, 'merchantOrderNo must be a string, not an array'],
    ['a NUL byte', () => `{"appId":"${appId}","attach":"a\\u0000b"}`, 'attach must not contain NUL characters'],
    ['a raw NUL byte', `{"appId":"x\u0000"}`, 'request body is not valid JSON'],
    ['a lone surrogate', () => `{"appId":"${appId}","productName":"\\udc00"}`, 'productName is not valid Unicode text'],
    ['a duplicate field', () => `{"appId":"${appId}","appId":"other"}`, 'appId is given more than once'],
    ['a number as appId', '{"appId":12345}', 'merchant not found'],
    ['a boolean as appId', '{"appId":true}', 'merchant not found'],
    ['a huge body', () => `{"appId":"${appId}","attach":"${'x'.repeat(70 * 1024)}"}`, 'request body exceeds 64 KiB'],
  ])('%s gets a named error, HTTP 200, and writes nothing', async (_name, body, message) => {
    const before = await orderCount();
    const { status, json } = await app.post(path, typeof body === 'function' ? body() : body);
    expect(status).toBe(200);
    expect(json.data).toBeNull();
    expect(json.message).toBe(message);
    expect([1003, 1005]).toContain(json.code);
    expect(await orderCount()).toBe(before);
  });

  it('refuses invalid UTF-8', async () => {
    const response = await fetch(`${app.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
    });
    expect(await response.json()).toEqual({ code: 1003, message: 'request body is not valid UTF-8', data: null });
  });

  it('refuses another content type', async () => {
    const { json } = await app.post(path, `{"appId":"${appId}"}`, { 'content-type': 'text/plain' });
    expect(json).toEqual({ code: 1003, message: 'Content-Type must be application/json', data: null });
  });

  it('answers 405 to other methods', async () => {
    const response = await fetch(`${app.baseUrl}${path}`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});
