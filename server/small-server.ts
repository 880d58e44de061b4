import type http from 'node:http';

/** A small server of the worker's (probes, metrics): short timeouts, listening on `port`/`host`, with its close. */
export async function listenSmallServer(server: http.Server, options: { port: number; host: string }): Promise<{ port: number; close(): Promise<void> }> {
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
