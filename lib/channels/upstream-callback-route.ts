import { readLimitedBody } from '../http/read-limited-body';

const MAX_CALLBACK_BYTES = 64 * 1024;

function text(body: string, status = 200): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/**
 * The one wrapper for upstream callbacks (machine-to-machine, no merchant): the raw body, exactly as sent, goes to
 * the channel's handler, which verifies it and returns the body to answer (`success` / `fail`). Anything
 * unexpected is HTTP 500 `fail`, so the upstream sends the callback again later.
 */
export function upstreamCallbackRoute(channel: string, handle: (rawBody: string, now: Date) => Promise<string>) {
  return async function POST(request: Request): Promise<Response> {
    try {
      const bytes = await readLimitedBody(request, MAX_CALLBACK_BYTES);
      if (bytes === 'too-large') return text('fail', 413);
      let rawBody: string;
      try {
        rawBody = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        rawBody = Buffer.from(bytes).toString('latin1'); // still recorded (and refused by the signature check)
      }
      return text(await handle(rawBody, new Date()));
    } catch (error) {
      console.error(`callback ${channel}: unexpected failure`, error instanceof Error ? error.stack : error);
      return text('fail', 500);
    }
  };
}
