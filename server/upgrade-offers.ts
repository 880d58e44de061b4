import http from 'node:http';

/** Which `Upgrade` offers the server takes up; every other one is answered over HTTP/1.1 as if it were not there. */
export type UpgradePolicy = (req: http.IncomingMessage) => boolean;

/** Production serves no WebSocket and no h2c: every upgrade offer is ignored. */
export const NO_UPGRADES: UpgradePolicy = () => false;

const offersWebSocket = (req: http.IncomingMessage) => /(^|,)\s*websocket\s*(,|$)/i.test(req.headers.upgrade ?? '');

/** Development takes up Next.js's own WebSocket (hot reload, under /_next/) and nothing else. */
export const DEVELOPMENT_SOCKETS: UpgradePolicy = (req) => offersWebSocket(req) && (req.url ?? '').startsWith('/_next/');

const OFFERED = Symbol('upgrade offered');

/**
 * The request class of the service's server: it reports an upgrade only when `accepts` takes the offer. Node.js hands
 * every request carrying `Upgrade` to the server's 'upgrade' listeners once there is one (Next.js adds its own at the
 * first page request), and that listener ends the connection for anything but its hot-reload socket: Java's
 * HttpClient and `curl --http2`, which offer `Upgrade: h2c` on every http:// request, got no answer at all. A server
 * may ignore an upgrade it does not support and answer over HTTP/1.1 (RFC 9110 §7.8); Node.js does so for a request
 * it is told is no upgrade, and reads the connection on as HTTP/1.1. CONNECT keeps Node.js's own handling.
 */
export function upgradeFilteringRequest(accepts: UpgradePolicy): typeof http.IncomingMessage {
  class UpgradeFilteringRequest extends http.IncomingMessage {}
  // An accessor on the prototype: Node.js's parser sets `upgrade` when the client offers one, and reads it back once
  // the headers are in.
  Object.defineProperty(UpgradeFilteringRequest.prototype, 'upgrade', {
    get(this: http.IncomingMessage & { [OFFERED]?: boolean }) {
      return this[OFFERED] === true && (this.method === 'CONNECT' || accepts(this));
    },
    set(this: http.IncomingMessage & { [OFFERED]?: boolean }, offered: unknown) {
      this[OFFERED] = offered === true;
    },
  });
  return UpgradeFilteringRequest;
}
