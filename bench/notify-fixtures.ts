/** What the notification benchmarks share: receivers on loopback, orders in bulk, worker processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { Database } from '../lib/db/client';
import { markOrderPaid } from '../lib/orders/order-status';

export const PAY_CONCURRENCY = 16;

/**
 * A merchant's receiver: answers "success" at once and notes when each merchantOrderNo arrived (the bench's own
 * clock), or, `hanging`, accepts and reads every request and never answers.
 */
export async function startReceiver(options: { hanging?: boolean } = {}) {
  let received = 0;
  const arrivedAt = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received += 1;
      if (options.hanging) return;
      const merchantOrderNo = new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('merchantOrderNo');
      if (merchantOrderNo && !arrivedAt.has(merchantOrderNo)) arrivedAt.set(merchantOrderNo, performance.timeOrigin + performance.now());
      res.end('success');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`,
    received: () => received,
    arrivedAt,
    /** Drops the connections held open, so attempts in flight end now. */
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Pending orders inserted in bulk: the benchmark measures notifications, not order creation. */
export async function seedPendingOrders(db: Database, merchantId: number, notifyUrl: string, run: string, count: number) {
  const { rows } = await db.execute<{ id: string; merchant_order_no: string }>(sql`
    INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, currency, requested_amount_minor, pay_amount_minor,
                        chain_type, notify_url, attach, pay_token, expires_at)
    SELECT 'B' || ${run} || '-' || g, ${merchantId}, 'bench-' || ${run} || '-' || g, 'USDT', 'USDT', 100 + g, 100 + g,
           '1', ${notifyUrl}, 'bench', md5(random()::text) || g, now() + interval '1 day'
    FROM generate_series(1, ${count}) AS g
    RETURNING id, merchant_order_no`);
  return rows.map((row) => ({ id: Number(row.id), merchantOrderNo: row.merchant_order_no }));
}

export function startWorker(databaseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, NOTIFY_ALLOW_PRIVATE_NETWORKS: 'true' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      // keep reading: a worker's log must never block on a full pipe
      if (chunk.toString().includes('notification delivery running')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

/** SIGTERM: the worker claims nothing more and waits for its attempts in flight. */
export async function stopWorker(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export async function markPaid(db: Database, orderId: number) {
  await db.transaction((tx) => markOrderPaid(tx as unknown as Database, { orderId, via: 'bench', paidAt: new Date(), tradeNo: `tx${orderId}` }));
}

export async function markAllPaid(db: Database, orderIds: number[]) {
  let next = 0;
  await Promise.all(
    Array.from({ length: PAY_CONCURRENCY }, async () => {
      while (next < orderIds.length) await markPaid(db, orderIds[next++]!);
    }),
  );
}
