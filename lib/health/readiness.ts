import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type pg from 'pg';
import { migrationsFolder } from '../db/migrate';

/** One probe's result: `ok`, or why it failed (shown to whoever reads /readyz; no secrets, no connection strings). */
export type CheckResult = { ok: true } | { ok: false; reason: string };

export interface Readiness {
  ready: boolean;
  checks: { database: CheckResult; migrations: CheckResult };
}

/** How long the database may take to answer before the service counts as not ready. */
export const READINESS_TIMEOUT_MS = 2_000;

interface ExpectedMigration {
  tag: string;
  createdAt: string;
}

let expected: ExpectedMigration[] | undefined;

/**
 * The migrations shipped in lib/db/migrations, as drizzle records them in `drizzle.__drizzle_migrations`
 * (`created_at` is the journal entry's `when`). Read once: the folder does not change while the process runs.
 */
function expectedMigrations(): ExpectedMigration[] {
  if (!expected) {
    const files = readMigrationFiles({ migrationsFolder });
    const journal = readJournalTags();
    expected = files.map((file, index) => ({ tag: journal[index] ?? String(file.folderMillis), createdAt: String(file.folderMillis) }));
  }
  return expected;
}

function readJournalTags(): string[] {
  // readMigrationFiles returns the journal's entries in order; their tags name them in the answer.
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  return journal.entries.map((entry) => entry.tag);
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function describeFailure(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' ? `${code}: ${message}` : message;
}

/**
 * Is this process able to serve: the database answers, and every migration of lib/db/migrations is applied to it.
 * `pool` is a function so that a failure to build it (no DATABASE_URL) is a failed database check too.
 */
export async function checkReadiness(pool: () => pg.Pool, timeoutMs = READINESS_TIMEOUT_MS): Promise<Readiness> {
  let applied: Set<string>;
  try {
    await withTimeout(pool().query('SELECT 1'), timeoutMs);
  } catch (error) {
    return { ready: false, checks: { database: { ok: false, reason: describeFailure(error) }, migrations: { ok: false, reason: 'not checked: the database did not answer' } } };
  }
  const database: CheckResult = { ok: true };
  try {
    const { rows } = await withTimeout(pool().query<{ created_at: string }>('SELECT created_at::text AS created_at FROM drizzle.__drizzle_migrations'), timeoutMs);
    applied = new Set(rows.map((row) => row.created_at));
  } catch (error) {
    const reason = (error as { code?: unknown })?.code === '42P01' ? 'no migration has been applied' : describeFailure(error);
    return { ready: false, checks: { database, migrations: { ok: false, reason } } };
  }
  const missing = expectedMigrations().filter((migration) => !applied.has(migration.createdAt));
  if (missing.length > 0) {
    return { ready: false, checks: { database, migrations: { ok: false, reason: `not applied: ${missing.map((migration) => migration.tag).join(', ')}` } } };
  }
  return { ready: true, checks: { database, migrations: { ok: true } } };
}
