import { existsSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ownConnection } from '../test/own-connection';
import { waitFor } from '../test/wait-for';
import { databaseBackendsCpuMs, processCpuMs } from './proc-cpu';

const databaseName = () => new URL(process.env.DATABASE_URL!).pathname.slice(1);

/** Runs a CPU-bound statement on the connection and returns the CPU its backend spent on it (ms). */
async function burn(client: pg.Client): Promise<{ backend: number; spentMs: number }> {
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const backend = rows[0]!.pid;
  const before = processCpuMs(backend)!;
  await client.query('SELECT count(*) FROM generate_series(1, 3000000)');
  const spentMs = processCpuMs(backend)! - before;
  expect(spentMs).toBeGreaterThanOrEqual(50);
  return { backend, spentMs };
}

async function closeAndWaitForExit(client: pg.Client, backend: number): Promise<void> {
  await client.end();
  await waitFor(() => !existsSync(`/proc/${backend}`), `backend ${backend} to exit`, 10_000);
}

describe.runIf(process.platform === 'linux')("the bench's PostgreSQL CPU accounting", () => {
  it("reads a process's CPU time to the millisecond, as the kernel's own accounting of this process does (not in 10 ms ticks)", () => {
    const spin = (ms: number) => {
      for (const until = performance.now() + ms; performance.now() < until; );
    };
    spin(3); // this thread runs from here on: its time is current when read
    const cpuUsageMs = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    };
    for (const burst of [37, 53, 71]) {
      const [ours, kernels] = [processCpuMs(process.pid)!, cpuUsageMs()];
      spin(burst);
      const [oursAfter, kernelsAfter] = [processCpuMs(process.pid)!, cpuUsageMs()];
      expect(Math.abs(oursAfter - ours - (kernelsAfter - kernels))).toBeLessThan(3);
    }
  });

  it('keeps the time of a backend that ran and then closed between two readings (a pool closing an idle connection)', async () => {
    const client = await ownConnection();
    const start = databaseBackendsCpuMs(databaseName())!;
    const { backend, spentMs } = await burn(client);
    const whileOpen = databaseBackendsCpuMs(databaseName())!;
    await closeAndWaitForExit(client, backend);
    const end = databaseBackendsCpuMs(databaseName())!;

    // At least what the closed backend spent; the database's other backends may add to it, never take from it.
    expect(whileOpen - start).toBeGreaterThanOrEqual(spentMs);
    expect(end - start).toBeGreaterThanOrEqual(spentMs);
    expect(end).toBeGreaterThanOrEqual(whileOpen);
  });

  it("counts nothing of another database's backends", async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = '/postgres';
    const other = new pg.Client({ connectionString: url.toString() });
    await other.connect();
    const start = databaseBackendsCpuMs(databaseName())!;
    const { backend } = await burn(other);
    await closeAndWaitForExit(other, backend);
    expect(databaseBackendsCpuMs(databaseName())! - start).toBeLessThanOrEqual(20); // this database's idle connections
  });
});
