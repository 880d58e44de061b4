/**
 * How long the service's HTTP server waits for a client, set here rather than left to Node.js's defaults (60 s for
 * headers, 300 s for a request, checked only every 30 s), under which a client announcing a body and sending a few
 * bytes held its connection for minutes. Each value is the time an honest client needs, with room to spare.
 */
export const SERVER_TIMEOUTS = {
  /** Request headers are a few KB sent at once, by a browser, a merchant's server or a proxy. */
  headersTimeout: 10_000,
  /**
   * A whole request, body included: the largest bodies are the back office's uploads (a 100 KiB logo, credential
   * files), which this leaves 3.4 KB/s to send.
   */
  requestTimeout: 30_000,
  /**
   * An idle kept-alive connection stays open longer than the 60 s after which common reverse proxies and load
   * balancers (nginx's upstream keepalive, AWS ALB) drop theirs: closing first would let a proxy send a request on a
   * connection being closed, and its client would see a 502.
   */
  keepAliveTimeout: 65_000,
  /** How often Node.js enforces the two timeouts above; its default, 30 s, would nearly double them. */
  connectionsCheckingInterval: 1_000,
} as const;

/**
 * The open API's and the upstream callbacks' bodies (at most 64 KiB, sent by servers) must arrive this long after
 * their headers, else the request is answered 408 and its connection closed.
 */
export const BODY_TIMEOUT_MS = 10_000;
