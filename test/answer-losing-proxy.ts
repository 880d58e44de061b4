import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A small seeded generator (mulberry32), so that a run that fails can be run again with the same losses. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * An HTTP proxy in front of an upstream that forwards every request, waits for the whole answer (the upstream has
 * done the work: a refund is made), then, at random, drops the connection instead of passing the answer on: the
 * caller never hears what happened, as on a network that fails between the upstream and us.
 */
export async function startAnswerLosingProxy(targetBaseUrl: string, options: { lossRate: number; random: () => number }) {
  const target = new URL(targetBaseUrl);
  let lossRate = options.lossRate;
  let lost = 0;
  let forwarded = 0;
  const server = http.createServer((req, res) => {
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        forwarded += 1;
        if (lossRate > 0 && options.random() < lossRate) {
          lost += 1;
          req.socket.destroy();
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(Buffer.concat(chunks));
      });
    });
    upstream.on('error', () => req.socket.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    /** The target URL with the proxy's host and port. */
    url: `http://127.0.0.1:${port}${target.pathname}`,
    /** From now on, this share of the answers is lost (0: none). */
    setLossRate(rate: number) {
      lossRate = rate;
    },
    get lost() {
      return lost;
    },
    get forwarded() {
      return forwarded;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
