import { clientAddressFrom, throttledClientOf } from '../accounts/client-address';
import { DomainError } from '../errors/domain-error';
import { readLimitedBody } from '../http/read-limited-body';
import { FailureLimiter } from '../security/failure-limiter';
import { log } from '../observability/logger';
import { logFailure } from './log-failure';

const MAX_CALLBACK_BYTES = 64 * 1024;

/**
 * A source (client address; an IPv6 one by its /64) whose callbacks were refused CALLBACK_FAILURES_PER_MINUTE times (default 30) in a minute
 * gets 429 without its callbacks being read or recorded until the minute ends: forgeries cannot grow the callback log
 * without bound. Acknowledged callbacks (a real upstream) never count.
 */
const refusedSources = new FailureLimiter({
  limit: () => {
    const configured = Number(process.env.CALLBACK_FAILURES_PER_MINUTE ?? 30);
    return Number.isInteger(configured) && configured > 0 ? configured : 30;
  },
  windowMs: 60_000,
  maxSources: 10_000,
});

function text(body: string, status = 200): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/** A handler's answer: a text body (HTTP 200), or a status with an optional JSON or text body, as the upstream expects. */
export type CallbackReply = string | { status: number; json?: unknown; text?: string };

export interface CallbackRouteOptions {
  /**
   * What to answer when the body is too large (413), the source is refused (429) or the handler failed unexpectedly
   * (500); default text `fail`.
   */
  failure?: (status: 413 | 429 | 500) => Response;
}

/** The upstream was told the callback was taken (`success`, or a 2xx status). */
function acknowledged(reply: CallbackReply): boolean {
  return typeof reply === 'string' ? reply === 'success' : reply.status < 300;
}

function toResponse(reply: CallbackReply): Response {
  if (typeof reply === 'string') return text(reply);
  if (reply.text !== undefined) return text(reply.text, reply.status);
  if (reply.json === undefined) return new Response(null, { status: reply.status });
  return Response.json(reply.json, { status: reply.status });
}

/**
 * The one wrapper for upstream callbacks (machine-to-machine, no merchant), and the one place their failures become
 * an answer: the raw body, exactly as sent, and the request headers (some upstreams sign in headers) go to the
 * channel's handler, which verifies them and returns what to answer. Anything unexpected is HTTP 500 (`fail`, or the channel's failure body), so the upstream sends the callback
 * again later.
 */
export function upstreamCallbackRoute(
  channel: string,
  handle: (rawBody: string, now: Date, headers: Headers) => Promise<CallbackReply>,
  options: CallbackRouteOptions = {},
) {
  const failure = options.failure ?? (() => text('fail', 500));
  return async function POST(request: Request): Promise<Response> {
    const source = throttledClientOf(clientAddressFrom(request.headers.get('x-forwarded-for')));
    const now = new Date();
    if (refusedSources.refuses(source, now.getTime())) return options.failure ? failure(429) : text('fail', 429);
    try {
      const bytes = await readLimitedBody(request, MAX_CALLBACK_BYTES);
      if (bytes === 'too-large') {
        refusedSources.recordFailure(source, now.getTime());
        return options.failure ? failure(413) : text('fail', 413);
      }
      let rawBody: string;
      try {
        rawBody = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        rawBody = Buffer.from(bytes).toString('latin1'); // still recorded (and refused by the signature check)
      }
      const reply = await handle(rawBody, now, request.headers);
      if (!acknowledged(reply)) refusedSources.recordFailure(source, now.getTime());
      return toResponse(reply);
    } catch (error) {
      // A DomainError (an upstream we had to ask could not answer, …) is expected: its message, no stack. Either way
      // the upstream is told to send the callback again.
      if (error instanceof DomainError) log().warn({ component: 'callback', channel, kind: error.kind }, `callback ${channel}: ${error.kind}: ${error.message}`);
      else logFailure(`callback ${channel}`, error);
      return failure(500);
    }
  };
}
