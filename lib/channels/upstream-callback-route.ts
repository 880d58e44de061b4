import { readLimitedBody } from '../http/read-limited-body';

const MAX_CALLBACK_BYTES = 64 * 1024;

function text(body: string, status = 200): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/** A handler's answer: a text body (HTTP 200, as YHT expects), or a status with an optional JSON body (WeChat). */
export type CallbackReply = string | { status: number; json?: unknown };

export interface CallbackRouteOptions {
  /** What to answer when the body is too large (413) or the handler failed unexpectedly (500); default text `fail`. */
  failure?: (status: 413 | 500) => Response;
}

function toResponse(reply: CallbackReply): Response {
  if (typeof reply === 'string') return text(reply);
  if (reply.json === undefined) return new Response(null, { status: reply.status });
  return Response.json(reply.json, { status: reply.status });
}

/**
 * The one wrapper for upstream callbacks (machine-to-machine, no merchant): the raw body, exactly as sent, and the
 * request headers (WeChat signs in headers) go to the channel's handler, which verifies them and returns what to
 * answer. Anything unexpected is HTTP 500 (`fail`, or the channel's failure body), so the upstream sends the callback
 * again later.
 */
export function upstreamCallbackRoute(
  channel: string,
  handle: (rawBody: string, now: Date, headers: Headers) => Promise<CallbackReply>,
  options: CallbackRouteOptions = {},
) {
  const failure = options.failure ?? (() => text('fail', 500));
  return async function POST(request: Request): Promise<Response> {
    try {
      const bytes = await readLimitedBody(request, MAX_CALLBACK_BYTES);
      if (bytes === 'too-large') return options.failure ? failure(413) : text('fail', 413);
      let rawBody: string;
      try {
        rawBody = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        rawBody = Buffer.from(bytes).toString('latin1'); // still recorded (and refused by the signature check)
      }
      return toResponse(await handle(rawBody, new Date(), request.headers));
    } catch (error) {
      console.error(`callback ${channel}: unexpected failure`, error instanceof Error ? error.stack : error);
      return failure(500);
    }
  };
}
