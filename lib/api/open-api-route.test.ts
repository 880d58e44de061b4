import { describe, expect, it } from 'vitest';
import { aMerchant } from '../../test/factories';
import { contractSignature } from '../../test/beds/contract-signer';
import { openApiRoute } from './open-api-route';
import { MAX_BODY_BYTES } from '../validation/request-fields';
import { success } from '../validation/signed-request';

/** The Next.js half of an endpoint (POST on Web Request/Response) answers exactly as its core does. */
describe('openApiRoute POST (Next.js)', () => {
  const endpoint = openApiRoute('test', async ({ merchant, fields }) => {
    if (fields.fail === 'yes') throw new Error('boom');
    return success('success', { appId: merchant.appId, echo: fields.echo ?? null });
  });

  const post = (body: BodyInit | null, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    endpoint.POST(new Request('http://localhost/v1/api/open/x', { method: 'POST', headers, body, duplex: 'half' } as RequestInit));

  it('answers a signed request with its envelope', async () => {
    const merchant = await aMerchant();
    const fields = { appId: merchant.appId, echo: 'hi' };
    const response = await post(JSON.stringify({ ...fields, signature: contractSignature(fields, merchant.appSecret) }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ code: 0, message: 'success', data: { appId: merchant.appId, echo: 'hi' } });
  });

  it('refuses another content type, and a body over the limit by declared length or by its bytes', async () => {
    expect(await (await post('{}', { 'content-type': 'text/plain' })).json()).toEqual({
      code: 1003,
      message: 'Content-Type must be application/json',
      data: null,
    });
    const tooLarge = { code: 1003, message: 'request body exceeds 64 KiB', data: null };
    const declared = await post('{}', { 'content-type': 'application/json', 'content-length': String(MAX_BODY_BYTES + 1) });
    expect(await declared.json()).toEqual(tooLarge);
    const chunk = new Uint8Array(16 * 1024).fill(0x20);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.byteLength;
        controller.enqueue(chunk);
        if (sent > 10 * MAX_BODY_BYTES) controller.close();
      },
    });
    const streamed = await post(stream);
    expect(await streamed.json()).toEqual(tooLarge);
    expect(sent).toBeLessThanOrEqual(MAX_BODY_BYTES + 2 * chunk.byteLength); // stopped reading at the limit
  });

  it('answers HTTP 500 with code 1000 to an unexpected failure', async () => {
    const merchant = await aMerchant();
    const fields = { appId: merchant.appId, fail: 'yes' };
    const response = await post(JSON.stringify({ ...fields, signature: contractSignature(fields, merchant.appSecret) }));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ code: 1000, message: 'internal error', data: null });
  });
});
