import { clientAddressFrom } from '../accounts/client-address';
import type { Database } from '../db/client';
import { getDb } from '../db/client';
import type { Merchant, SigningMerchant } from '../merchants/merchants';
import { confirmMerchant, StaleMerchant, type MerchantCheck } from '../merchants/merchant-check';
import { forgetSigningMerchant, readSigningMerchant, rememberedSigningMerchant } from '../merchants/signing-merchants';
import { readLimitedBody } from '../http/read-limited-body';
import { verifySignature } from '../signing';
import { DomainError, invalidParameter } from '../errors/domain-error';
import { decodeBody, MAX_BODY_BYTES, parseRequestFields, present, type RequestFields } from '../validation/request-fields';
import type { SignedRequest, SuccessAnswer } from '../validation/signed-request';
import { refuseAmbiguousValues } from '../validation/unambiguous-values';
import { CONTRACT_FIELD_NAMES } from './contract-field-names';
import { errorEnvelope, internalErrorEnvelope, successEnvelope, temporarilyUnavailableEnvelope, type Envelope } from './error-codes';
import { failureForLog, isDatabaseUnavailable } from '../db/database-failure';
import { OutageLog } from '../db/outage-log';
import { channelLabel, metrics, secondsSince } from '../observability/metrics';
import { DEFAULT_CHANNEL } from '../channels/channel-names';
import { log } from '../observability/logger';
import { requestIdFrom } from '../observability/request-id';
import { currentDate } from '../clock';

export type OpenApiContext = SignedRequest;

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
  /** The request's id (X-Request-Id), stored with the order it creates and named by its log lines. */
  requestId?: string;
}

/** What the transport answers: always `application/json; charset=utf-8` (OPEN_API_CONTENT_TYPE). */
export interface OpenApiReply {
  status: number;
  /** The envelope as JSON text. */
  json: string;
  /** Seconds after which a retry may succeed (the Retry-After header of a 503). */
  retryAfterSeconds?: number;
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

const signedBy = (fields: RequestFields, found: SigningMerchant, signature: string) =>
  verifySignature(fields, found.appSecret, signature) || (found.previousAppSecret !== undefined && verifySignature(fields, found.previousAppSecret, signature));

/**
 * appId + signature: the merchant is found by appId and the request must be signed with its AppSecret (or, during the
 * overlap after a rotation, with the previous one). With `remembered`, a request signed as the merchant's remembered
 * row says is authenticated without a statement, under a MerchantCheck its outcome must pass; anything else (not
 * remembered, no signature, another secret) reads the row now, so a refusal never rests on a remembered row.
 */
async function authenticate(db: Database, fields: RequestFields, remembered: boolean): Promise<{ merchant: Merchant; merchantCheck?: MerchantCheck }> {
  const appId = present(fields, 'appId');
  if (!appId) throw invalidParameter('appId is required');
  if (appId.length > 64) throw new DomainError('merchant_not_found');
  const signature = present(fields, 'signature');
  const now = currentDate();
  const known = remembered && signature ? rememberedSigningMerchant(appId, now) : undefined;
  if (known && signedBy(fields, known.found, signature!)) return { merchant: known.found.merchant, merchantCheck: known.check };
  const found = await readSigningMerchant(db, appId, now);
  if (!found) throw new DomainError('merchant_not_found');
  if (!signature) throw invalidParameter('signature is required');
  if (!signedBy(fields, found, signature)) throw new DomainError('signature_mismatch');
  return { merchant: found.merchant };
}

/** One line when the database becomes unreachable and one when it is back, not one per refused request. */
const databaseOutage = new OutageLog('open api');

/** How soon a merchant may retry after a 503 (the database is usually back within seconds: a restart, a failover). */
export const RETRY_AFTER_SECONDS = 2;

/**
 * A failure no domain rule explains. The database being unreachable is temporary: HTTP 503 with Retry-After and code
 * 1000, whose contract meaning is "retry later, nothing half-done is kept" (a retry with the same fields answers an
 * order stored just before the cut). Anything else is a fault of ours: HTTP 500, logged with its stack but never
 * with SQL text or parameter values.
 */
function unexpected(error: unknown, requestId?: string): OpenApiReply {
  if (isDatabaseUnavailable(error)) {
    databaseOutage.failed(error);
    return { ...reply(temporarilyUnavailableEnvelope(), 503), retryAfterSeconds: RETRY_AFTER_SECONDS };
  }
  log().error({ component: 'open api', requestId, failure: failureForLog(error) }, 'open api: unexpected failure');
  return reply(internalErrorEnvelope(), 500);
}

/**
 * The one wrapper for open-API endpoints: body limits, JSON fields, appId + signature, values that cannot make the
 * signed text ambiguous, and the only place that turns
 * a DomainError into an envelope (error-codes.ts). Handled outcomes are HTTP 200; anything unexpected is HTTP 500 with code 1000.
 *
 * A route file exports both halves: `POST` for Next.js and `core` for the service's own server, which calls it
 * without building Web Request/Response objects (the merchants' hot path). Only POST reaches either: the transport
 * answers 405 to other methods.
 */
export interface OpenApiRouteOptions {
  /**
   * Which requests may authenticate with the merchant's remembered row: those whose handler confirms it in its own
   * statement before it acts (MerchantCheck). Others read the row first.
   */
  remembersMerchant?: (fields: RequestFields) => boolean;
}

/** The handler's outcome, which stands only once a remembered merchant row is confirmed unchanged (a refusal too). */
async function checkedOutcome(db: Database, check: MerchantCheck | undefined, outcome: () => Promise<SuccessAnswer>): Promise<SuccessAnswer> {
  try {
    const answer = await outcome();
    await confirmMerchant(db, check);
    return answer;
  } catch (error) {
    if (error instanceof DomainError) await confirmMerchant(db, check);
    throw error;
  }
}

export function openApiRoute(endpoint: string, handle: (context: OpenApiContext) => Promise<SuccessAnswer>, options: OpenApiRouteOptions = {}): OpenApiEndpoint {
  const { openApiRequests, openApiDuration } = metrics();

  /** Counted in memory only (no database work): the channel is the payType asked for, 'unknown' when none is readable. */
  async function core(input: OpenApiInput): Promise<OpenApiReply> {
    const startedAt = process.hrtime.bigint();
    const measured: { channel?: unknown; code?: number } = {};
    const result = await answer(input, measured);
    const channel = channelLabel(measured.channel);
    openApiRequests.inc({ endpoint, channel, code: String(measured.code ?? 1000) });
    openApiDuration.observe({ endpoint, channel }, secondsSince(startedAt));
    return result;
  }

  async function answer({ contentType, body, clientAddress, requestId }: OpenApiInput, measured: { channel?: unknown; code?: number }): Promise<OpenApiReply> {
    const startedAt = databaseOutage.now();
    try {
      if (!/^application\/json\s*(;|$)/i.test(contentType ?? '')) throw invalidParameter('Content-Type must be application/json');
      if (body === 'too-large') throw bodyTooLarge();
      const fields = parseRequestFields(decodeBody(body));
      measured.channel = fields.payType ?? DEFAULT_CHANNEL;
      const db = getDb();
      const run = async (remembered: boolean) => {
        const { merchant, merchantCheck } = await authenticate(db, fields, remembered);
        return checkedOutcome(db, merchantCheck, () => {
          refuseAmbiguousValues(fields, CONTRACT_FIELD_NAMES);
          return handle({ db, merchant, fields, clientAddress: clientAddress ?? 'unknown', requestId, merchantCheck });
        });
      };
      const answer = await run(options.remembersMerchant?.(fields) ?? false).catch((error: unknown) => {
        if (!(error instanceof StaleMerchant)) throw error;
        forgetSigningMerchant(fields.appId!);
        return run(false);
      });
      databaseOutage.answered(startedAt);
      measured.code = 0;
      return reply(successEnvelope(answer.message, answer.data));
    } catch (error) {
      const envelope = error instanceof DomainError ? errorEnvelope(error) : undefined;
      measured.code = envelope?.code;
      return envelope ? reply(envelope) : unexpected(error, requestId);
    }
  }

  async function POST(request: Request): Promise<Response> {
    let result: OpenApiReply;
    try {
      result = await core({
        contentType: request.headers.get('content-type') ?? undefined,
        body: await readLimitedBody(request, MAX_BODY_BYTES),
        clientAddress: clientAddressFrom(request.headers.get('x-forwarded-for')),
        requestId: requestIdFrom(request.headers.get('x-request-id')),
      });
    } catch (error) {
      result = unexpected(error); // the body could not be read
    }
    const headers: Record<string, string> = { 'content-type': OPEN_API_CONTENT_TYPE };
    if (result.retryAfterSeconds !== undefined) headers['retry-after'] = String(result.retryAfterSeconds);
    return new Response(result.json, { status: result.status, headers });
  }

  return { core, POST };
}
