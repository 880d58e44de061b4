/**
 * Headers on every answer of the service (pages, console, checkout, open API, probes): no page may be framed
 * (clickjacking of the AppSecret reveal and rotate buttons), no content sniffing, no full URLs (pay tokens) in the
 * Referer sent to other sites, and HSTS when the public URL is https.
 *
 * The CSP allows inline scripts and styles because Next.js inlines its bootstrap without nonces; it still pins every
 * source to this origin, forbids plugins and <base> tricks, and frame-ancestors 'none' stops framing. Forms may post
 * elsewhere (the payer's browser goes on to the payment upstream's own page). Development adds what React's dev
 * build and hot reload need (eval, the websocket).
 */
export function securityHeaders(options: { development: boolean; publicBaseUrl: string }): Record<string, string> {
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${options.development ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${options.development ? ' ws: wss:' : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  const headers: Record<string, string> = {
    'content-security-policy': csp,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
  if (options.publicBaseUrl.startsWith('https://')) headers['strict-transport-security'] = 'max-age=63072000; includeSubDomains';
  return headers;
}
