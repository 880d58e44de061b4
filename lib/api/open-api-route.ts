import type { Database } from '../db/client';
import { getDb } from '../db/client';
import { findMerchantForSigning, type Merchant } from '../merchants/merchants';
import { verifySignature } from '../signing';
import { errorEnvelope, type Envelope } from './error-codes';
import { OpenApiError, invalidParameter } from './errors';
import { decodeBody, MAX_BODY_BYTES, parseRequestFields, present, type RequestFields } from './request-fields';

export interface OpenApiContext {
  db: Database;
  merchant: Merchant;
  fields: RequestFields;
}

function jsonResponse(envelope: Envelope, status = 200): Response {
  return new Response(JSON.stringify(envelope), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

async function readBody(request: Request): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) throw invalidParameter(`request body exceeds ${MAX_BODY_BYTES / 1024} KiB`);
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw invalidParameter(`request body exceeds ${MAX_BODY_BYTES / 1024} KiB`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** appId + signature: the merchant is found by appId and the request must be signed with its AppSecret. */
async function authenticate(db: Database, fields: RequestFields): Promise<Merchant> {
  const appId = present(fields, 'appId');
  if (!appId) throw invalidParameter('appId is required');
  const signature = present(fields, 'signature');
  const found = appId.length <= 64 ? await findMerchantForSigning(db, appId) : undefined;
  if (!found) throw new OpenApiError('merchant_not_found');
  if (!signature) throw invalidParameter('signature is required');
  if (!verifySignature(fields, found.appSecret, signature)) throw new OpenApiError('signature_mismatch');
  return found.merchant;
}

/**
 * The one wrapper for open-API endpoints: body limits, JSON fields, appId + signature, and the mapping of
 * failures to envelopes. Handled outcomes are HTTP 200; anything unexpected is HTTP 500 with code 1000.
 */
export function openApiRoute(handle: (context: OpenApiContext) => Promise<Envelope>) {
  return async function POST(request: Request): Promise<Response> {
    try {
      const contentType = request.headers.get('content-type') ?? '';
      if (!/^application\/json\s*(;|$)/i.test(contentType)) throw invalidParameter('Content-Type must be application/json');
      const fields = parseRequestFields(decodeBody(await readBody(request)));
      const db = getDb();
      const merchant = await authenticate(db, fields);
      return jsonResponse(await handle({ db, merchant, fields }));
    } catch (error) {
      if (error instanceof OpenApiError) return jsonResponse(errorEnvelope(error));
      console.error('open api: unexpected failure', error instanceof Error ? error.stack : error);
      return jsonResponse(errorEnvelope(new OpenApiError('internal')), 500);
    }
  };
}
