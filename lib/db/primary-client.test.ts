import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../../test/tcp-proxy';
import { createDatabase } from './client';
import { isDatabaseUnavailable } from './database-failure';
import { parseDatabaseUrl } from './database-url';
import { NoWritableHostError } from './no-writable-host';
import { clientClassFor, primaryLocatorFor } from './primary-client';
import { PrimaryLocator } from './primary-locator';

/**
 * The locator and the pool's client on a multi-host URL whose two hosts are two TCP proxies before the test's one
 * server: cutting a proxy is a host that died. (Two real servers, a primary and its standby, are the failover test's:
 * server/failover.http.test.ts.)
 */
let first: TcpProxy;
let second: TcpProxy;

function multiHostUrl(parameters = 'target_session_attrs=read-write'): string {
  const direct = new URL(process.env.DATABASE_URL!);
  const userInfo = direct.password ? `${direct.username}:${direct.password}` : direct.username;
  return `postgres://${userInfo}@127.0.0.1:${first.port},127.0.0.1:${second.port}${direct.pathname}?${parameters}`;
}

beforeAll(async () => {
  const direct = new URL(process.env.DATABASE_URL!);
  const target = { host: direct.hostname, port: Number(direct.port || 5432) };
  [first, second] = [await startTcpProxy(target), await startTcpProxy(target)];
});

afterAll(async () => {
  await first.close();
  await second.close();
});

describe('connecting to the primary of a multi-host DATABASE_URL', () => {
  it("leaves a plain single-host URL to node-postgres's own client, with no locator and no probe", () => {
    expect(primaryLocatorFor(process.env.DATABASE_URL!)).toBeUndefined();
    expect(clientClassFor(process.env.DATABASE_URL!)).toBe(pg.Client);
    expect(primaryLocatorFor(`${process.env.DATABASE_URL!}?target_session_attrs=any`)).toBeUndefined();
    expect(primaryLocatorFor(`${process.env.DATABASE_URL!}?target_session_attrs=read-write`)).toBeInstanceOf(PrimaryLocator);
  });

  it('opens the pool on the first host that accepts writes, and on the next one once that host dies', async () => {
    const db = createDatabase(multiHostUrl(), 2);
    try {
      await db.$client.query('SELECT 1');
      expect(second.connectionsForwarded).toBe(0);
      first.cut('refuse');
      const failures: unknown[] = [];
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const answered = await db.$client.query('SELECT 1').then(
          () => true,
          (error: unknown) => void failures.push(error),
        );
        if (answered) break;
      }
      expect(second.connectionsForwarded).toBeGreaterThan(0);
      // The statement on the connection that died, and at most one connect to the dead host, fail as an outage.
      expect(failures.length).toBeLessThanOrEqual(2);
      expect(failures.every((failure) => isDatabaseUnavailable(failure))).toBe(true);
    } finally {
      first.restore();
      await db.$client.end();
    }
  });

  it('raises an outage naming what each host answered when none accepts writes, and never the password', async () => {
    const url = parseDatabaseUrl(multiHostUrl('options=-c%20default_transaction_read_only%3Don&target_session_attrs=read-write'));
    const error = await new PrimaryLocator(url).locate().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(NoWritableHostError);
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect((error as NoWritableHostError).answers).toEqual([
      `127.0.0.1:${first.port}: read-only (transaction_read_only is on)`,
      `127.0.0.1:${second.port}: read-only (transaction_read_only is on)`,
    ]);
  });

  it('probes once for many connections at once, and not again while the primary it found serves', async () => {
    const locator = new PrimaryLocator(parseDatabaseUrl(multiHostUrl()));
    const before = first.connectionsForwarded;
    const found = await Promise.all(Array.from({ length: 10 }, () => locator.locate()));
    expect(new Set(found).size).toBe(1);
    await locator.locate();
    expect(first.connectionsForwarded - before).toBe(1);
    locator.lost(found[0]!);
    await locator.locate();
    expect(first.connectionsForwarded - before).toBe(2);
  });
});
