import { closeDb } from '../lib/db/client';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

/**
 * Puts a TCP proxy between this process's database pool and the test file's database: getDb() goes through it from
 * now on, so a test can cut it. `direct(work)` reads the truth past the proxy (while it is cut, too); `close()` puts
 * everything back.
 */
export async function databaseThroughProxy(): Promise<{ proxy: TcpProxy; direct<T>(work: () => Promise<T>): Promise<T>; close(): Promise<void> }> {
  const directUrl = process.env.DATABASE_URL!;
  const target = new URL(directUrl);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const point = async (url: string) => {
    await closeDb();
    process.env.DATABASE_URL = url;
  };
  await point(proxy.url(directUrl));
  return {
    proxy,
    async direct(work) {
      await point(directUrl);
      try {
        return await work();
      } finally {
        await point(proxy.url(directUrl));
      }
    },
    async close() {
      await point(directUrl);
      await proxy.close();
    },
  };
}
