import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownConnection } from '../../test/own-connection';
import { createDatabase, type Database } from './client';

/** The service's pool with one connection: every statement runs on the same backend while the pool keeps it. */
let db: Database;

const backendPid = async () => (await db.$client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
/** The server's error a statement failed with (Drizzle wraps it as the cause of its own). */
const failureOf = (statement: Promise<unknown>) =>
  statement.then(
    () => undefined,
    (error: { cause?: unknown }) => (error.cause ?? error) as { code?: string; severity?: string },
  );

beforeAll(async () => {
  db = createDatabase(process.env.DATABASE_URL!, 1);
  await db.execute(sql`CREATE TABLE pool_refusals (k int PRIMARY KEY)`);
  await db.execute(sql`INSERT INTO pool_refusals VALUES (1)`);
});

afterAll(async () => {
  await db.$client.end();
});

describe("the service's pool after a failed statement", () => {
  it('keeps the connection when the server refused the statement (unique violation, division by zero), and the caller still gets the error', async () => {
    const pid = await backendPid();
    expect(await failureOf(db.execute(sql`INSERT INTO pool_refusals VALUES (1)`))).toMatchObject({ code: '23505', severity: 'ERROR' });
    expect(await backendPid()).toBe(pid);
    expect(await failureOf(db.$client.query('SELECT 1 / (k - 1) FROM pool_refusals'))).toMatchObject({ code: '22012' });
    expect(await backendPid()).toBe(pid);
    // The session is usable as before: the refused insert wrote nothing, the next one commits.
    await db.execute(sql`INSERT INTO pool_refusals VALUES (2)`);
    expect((await db.$client.query('SELECT count(*)::int AS n FROM pool_refusals')).rows[0]).toEqual({ n: 2 });
  });

  it('keeps it after a statement timeout too (the server cancelled that statement only)', async () => {
    const pid = await backendPid();
    const client = await db.$client.connect();
    await client.query('SET statement_timeout = 50');
    client.release();
    expect(await failureOf(db.$client.query('SELECT pg_sleep(2)'))).toMatchObject({ code: '57014', severity: 'ERROR' });
    expect(await backendPid()).toBe(pid);
    await db.$client.query('RESET statement_timeout');
  });

  it('closes the connection when the server ended the session (FATAL), and the next statement runs on a new one', async () => {
    const pid = await backendPid();
    const other = await ownConnection();
    try {
      const sleeping = failureOf(db.$client.query('SELECT pg_sleep(30)'));
      await expect.poll(async () => (await other.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1 AND query LIKE 'SELECT pg_sleep%'`, [pid])).rows[0].n).toBe(1);
      await other.query('SELECT pg_terminate_backend($1)', [pid]);
      expect(await sleeping).toMatchObject({ code: '57P01', severity: 'FATAL' });
    } finally {
      await other.end();
    }
    const next = await backendPid();
    expect(next).not.toBe(pid);
    expect(db.$client.totalCount).toBe(1);
  });

  it('closes the connection after a 25006 (its server no longer accepts writes), also when it met it inside a transaction', async () => {
    const pid = await backendPid();
    await db.$client.query('SET default_transaction_read_only = on'); // this session now answers as a demoted primary would
    expect(await failureOf(db.$client.query('INSERT INTO pool_refusals VALUES (3)'))).toMatchObject({ code: '25006', severity: 'ERROR' });
    const next = await backendPid();
    expect(next).not.toBe(pid);
    await db.$client.query('SET default_transaction_read_only = on');
    const inTransaction = db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO pool_refusals VALUES (3)`);
    });
    expect(await failureOf(inTransaction)).toMatchObject({ code: '25006' });
    expect(await backendPid()).not.toBe(next);
    await db.execute(sql`INSERT INTO pool_refusals VALUES (3)`); // the new connection is writable as before
  });

  it('answers a call with a callback as node-postgres does', async () => {
    const answer = await new Promise<unknown>((resolve, reject) => db.$client.query('SELECT 41 + 1 AS n', (error, result) => (error ? reject(error) : resolve(result.rows[0]))));
    expect(answer).toEqual({ n: 42 });
  });
});
