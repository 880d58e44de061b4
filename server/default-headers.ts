import type http from 'node:http';

/**
 * Gives `res` the service's headers (`[name, value, name, value, …]`) when its head is written, each only where the
 * handler set none of that name itself: a route with a stricter policy of its own (the checkout logo's `sandbox`
 * CSP) keeps it, every other answer gets the site-wide one. Next.js copies a route's headers only onto names not set
 * yet, so headers set before it runs would replace the route's own.
 */
export function setDefaultHeaders(res: http.ServerResponse, headers: readonly string[]): void {
  const writeHead = res.writeHead;
  res.writeHead = function writeHeadWithDefaults(this: http.ServerResponse, ...args: Parameters<typeof writeHead>) {
    for (let index = 0; index < headers.length; index += 2) {
      if (!this.hasHeader(headers[index]!)) this.setHeader(headers[index]!, headers[index + 1]!);
    }
    return writeHead.apply(this, args);
  } as typeof writeHead;
}
