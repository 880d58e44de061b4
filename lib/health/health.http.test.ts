import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getDb } from '../db/client';
import { startTestApp, type TestApp } from '../../test/open-api-client';
import { checkReadiness } from './readiness';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function get(path: string, method = 'GET') {
  const response = await fetch(`${app.baseUrl}${path}`, { method });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
}

/** Runs `work` with the process's database pointed at an address where nothing listens, then restores it. */
async function withUnreachableDatabase<T>(work: () => Promise<T>): Promise<T> {
  const real = process.env.DATABASE_URL;
  await closeDb();
  process.env.DATABASE_URL = 'postgres://nobody:nothing@127.0.0.1:1/none';
  try {
    return await work();
  } finally {
    await closeDb();
    process.env.DATABASE_URL = real;
  }
}

describe('GET /healthz (liveness)', () => {
  it('answers 200 {"status":"ok"} from the service\'s own server', async () => {
    const answer = await get('/healthz');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ status: 'ok' });
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('does not touch the database: still 200 when it cannot be reached', async () => {
    const answer = await withUnreachableDatabase(() => get('/healthz'));
    expect(answer).toMatchObject({ status: 200, json: { status: 'ok' } });
  });

  it('answers HEAD without a body and 405 to other methods', async () => {
    const head = await get('/healthz', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const post = await get('/healthz', 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('GET /readyz (readiness)', () => {
  it('answers 200 when the database answers and every migration is applied', async () => {
    const answer = await get('/readyz');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok' } });
  });

  it('answers 503 naming the migrations check when a migration of lib/db/migrations is not applied', async () => {
    const db = getDb();
    const { rows } = await db.execute<{ id: number; hash: string; created_at: string }>(
      sql`SELECT id, hash, created_at::text AS created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1`,
    );
    const last = rows[0]!;
    await db.execute(sql`DELETE FROM drizzle.__drizzle_migrations WHERE id = ${last.id}`);
    try {
      const answer = await get('/readyz');
      expect(answer.status).toBe(503);
      expect(answer.json.status).toBe('unavailable');
      expect(answer.json.failed).toEqual(['migrations']);
      expect(answer.json.checks.database).toBe('ok');
      expect(answer.json.checks.migrations).toMatch(/^not applied: \d{4}_\w+$/);
    } finally {
      await db.execute(sql`INSERT INTO drizzle.__drizzle_migrations (id, hash, created_at) VALUES (${last.id}, ${last.hash}, ${last.created_at}::bigint)`);
    }
    expect((await get('/readyz')).status).toBe(200);
  });

  it('answers 503 when no migration was ever applied (no migrations table)', async () => {
    const db = getDb();
    await db.execute(sql`ALTER TABLE drizzle.__drizzle_migrations RENAME TO __drizzle_migrations_away`);
    try {
      const answer = await get('/readyz');
      expect(answer.status).toBe(503);
      expect(answer.json).toMatchObject({ failed: ['migrations'], checks: { database: 'ok', migrations: 'no migration has been applied' } });
    } finally {
      await db.execute(sql`ALTER TABLE drizzle.__drizzle_migrations_away RENAME TO __drizzle_migrations`);
    }
  });

  it('answers 503 naming the database check when the database does not answer', async () => {
    const answer = await withUnreachableDatabase(() => get('/readyz'));
    expect(answer.status).toBe(503);
    expect(answer.json.failed).toEqual(['database', 'migrations']);
    expect(answer.json.checks.database).toMatch(/ECONNREFUSED/);
    expect(JSON.stringify(answer.json)).not.toContain('nothing'); // never the connection string's password
    expect((await get('/readyz')).status).toBe(200);
  });

  it('counts a database that does not answer in time as not ready', async () => {
    const hanging = { query: () => new Promise(() => undefined) } as unknown as import('pg').Pool;
    const started = Date.now();
    const result = await checkReadiness(() => hanging, 100);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result).toMatchObject({ ready: false, checks: { database: { ok: false, reason: 'no answer within 100 ms' } } });
  });
});
