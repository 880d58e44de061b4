import { clientAddressFrom } from '../accounts/client-address';
import type { Database } from '../db/client';
import { getDb } from '../db/client';
import { findMerchantForSigning, type Merchant } from '../merchants/merchants';
import { readLimitedBody } from '../http/read-limited-body';
import { verifySignature } from '../signing';
import { errorEnvelope, type Envelope } from './error-codes';
import { OpenApiError, invalidParameter } from './errors';
import { decodeBody, MAX_BODY_BYTES, parseRequestFields, present, type RequestFields } from './request-fields';

export interface OpenApiContext {
  db: Database;
  merchant: Merchant;
  fields: RequestFields;
  /** The caller's address (WECHAT h5 passes the payer's to the upstream); 'unknown' when the transport cannot tell. */
  clientAddress: string;
}

export const OPEN_API_CONTENT_TYPE = 'application/json; charset=utf-8';

/** What an open-API endpoint needs from the transport. */
export interface OpenApiInput {
  /** The Content-Type header, if any. */
  contentType: string | undefined;
  /**
   * The raw body, or 'too-large' when it is over MAX_BODY_BYTES: the transport stops buffering there (a declared
   * Content-Length over the limit is refused before reading anything).
   */
  body: Uint8Array | 'too-large';
  /** The client's address as the transport determined it (the socket's, or the trusted proxy's last hop). */
  clientAddress?: string;
}

/** What the transport answers: always `application/json; charset=utf-8` (OPEN_API_CONTENT_TYPE). */
export interface OpenApiReply {
  status: number;
  /** The envelope as JSON text. */
  json: string;
}

/** An open-API endpoint without HTTP objects: body bytes in, status + JSON text out. */
export type OpenApiCore = (input: OpenApiInput) => Promise<OpenApiReply>;

export interface OpenApiEndpoint {
  /** The transport-free endpoint, for the service's own HTTP server (server/app-server.ts). */
  core: OpenApiCore;
  /** The same endpoint as a Next.js route handler (Web Request/Response). */
  POST: (request: Request) => Promise<Response>;
}

const bodyTooLarge = () => invalidParameter(`request body exceeds ${MAX_BODY_BYTES / 1024} KiB`);

function reply(envelope: Envelope, status = 200): OpenApiReply {
  return { status, json: JSON.stringify(envelope) };
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

function unexpected(error: unknown): OpenApiReply {
  console.error('open api: unexpected failure', error instanceof Error ? error.stack : error);
  return reply(errorEnvelope(new OpenApiError('internal')), 500);
}

/**
 * The one wrapper for open-API endpoints: body limits, JSON fields, appId + signature, and the mapping of
 * failures to envelopes. Handled outcomes are HTTP 200; anything unexpected is HTTP 500 with code 1000.
 *
 * A route file exports both halves: `POST` for Next.js and `core` for the service's own server, which calls it
 * without building Web Request/Response objects (the merchants' hot path). Only POST reaches either: the transport
 * answers 405 to other methods.
 */
export function openApiRoute(handle: (context: OpenApiContext) => Promise<Envelope>): OpenApiEndpoint {
  async function core({ contentType, body, clientAddress }: OpenApiInput): Promise<OpenApiReply> {
    try {
      if (!/^application\/json\s*(;|$)/i.test(contentType ?? '')) throw invalidParameter('Content-Type must be application/json');
      if (body === 'too-large') throw bodyTooLarge();
      const fields = parseRequestFields(decodeBody(body));
      const db = getDb();
      const merchant = await authenticate(db, fields);
      return reply(await handle({ db, merchant, fields, clientAddress: clientAddress ?? 'unknown' }));
    } catch (error) {
      if (error instanceof OpenApiError) return reply(errorEnvelope(error));
      return unexpected(error);
    }
  }

  async function POST(request: Request): Promise<Response> {
    let result: OpenApiReply;
    try {
      result = await core({
        contentType: request.headers.get('content-type') ?? undefined,
        body: await readLimitedBody(request, MAX_BODY_BYTES),
        clientAddress: clientAddressFrom(request.headers.get('x-forwarded-for')),
      });
    } catch (error) {
      result = unexpected(error); // the body could not be read
    }
    return new Response(result.json, { status: result.status, headers: { 'content-type': OPEN_API_CONTENT_TYPE } });
  }

  return { core, POST };
}
