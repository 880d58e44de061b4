import net from 'node:net';

/**
 * A TCP proxy between a process and PostgreSQL that a fault test cuts and restores, as a network or a database
 * restart would: `cut('refuse')` drops every connection and refuses new ones (a server that is down), `cut('hang')`
 * drops them and accepts new ones that never answer (a path that swallows packets). `restore()` forwards again.
 */
export interface TcpProxy {
  port: number;
  /** The target URL rewritten to go through the proxy. */
  url(targetUrl: string): string;
  cut(mode?: 'refuse' | 'hang'): void;
  /**
   * Cuts (refusing) as soon as the server sends bytes containing `text` (e.g. a CommandComplete tag such as
   * `INSERT 0 1`), without passing them on: the server has done the work, the client never hears of it.
   */
  cutWhenServerSends(text: string): Promise<void>;
  restore(): void;
  /** Connections opened through the proxy so far (forwarded, not refused). */
  readonly connectionsForwarded: number;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let state: 'open' | 'refuse' | 'hang' = 'open';
  let forwarded = 0;
  let trigger: { pattern: Buffer; fire: () => void } | undefined;
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  const server = net.createServer((client) => {
    track(client);
    if (state === 'refuse') return void client.resetAndDestroy();
    if (state === 'hang') return; // accepted, never answered, until cut again or restored (then dropped)
    forwarded += 1;
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (trigger && chunk.includes(trigger.pattern)) return trigger.fire();
      if (!client.write(chunk)) upstream.pause();
    });
    client.on('drain', () => upstream.resume());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  const dropAll = () => {
    for (const socket of sockets) socket.resetAndDestroy();
  };
  return {
    port,
    url(targetUrl) {
      const url = new URL(targetUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    cut(mode = 'refuse') {
      state = mode;
      dropAll();
    },
    cutWhenServerSends(text) {
      return new Promise<void>((resolve) => {
        trigger = {
          pattern: Buffer.from(text),
          fire: () => {
            trigger = undefined;
            state = 'refuse';
            dropAll();
            resolve();
          },
        };
      });
    },
    restore() {
      if (state === 'hang') dropAll(); // the hung connections fail now; new ones are forwarded
      state = 'open';
    },
    get connectionsForwarded() {
      return forwarded;
    },
    close() {
      dropAll();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
