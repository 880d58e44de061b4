import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './database-failure';
import { StatementBatches, type BatchStatement } from './statement-batches';

/**
 * The batching itself, on real PostgreSQL: a statement inserting its inputs into a table whose CHECK refuses some, so
 * that the batch's failure modes are the database's own.
 */
let pool: pg.Pool;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
  await pool.query('CREATE TABLE batch_probe (k text PRIMARY KEY, amount int NOT NULL CHECK (amount > 0))');
});
afterAll(() => pool.end());

/** Inserts every input as one statement; answers each input's stored amount (undefined when it was already there). */
function counted(target: pg.Pool) {
  const sizes: number[] = [];
  const statement: BatchStatement<{ k: string; amount: number }, number | undefined> = async (inputs) => {
    sizes.push(inputs.length);
    const { rows } = await target.query<{ k: string; amount: number }>(
      `INSERT INTO batch_probe (k, amount) SELECT * FROM unnest($1::text[], $2::int[]) ON CONFLICT DO NOTHING RETURNING k, amount`,
      [inputs.map((input) => input.k), inputs.map((input) => input.amount)],
    );
    const byKey = new Map(rows.map((row) => [row.k, row.amount]));
    return inputs.map((input) => byKey.get(input.k));
  };
  return { sizes, statement };
}

describe('StatementBatches', () => {
  it('sends the inputs that arrive together as few statements, and answers each its own row', async () => {
    const { sizes, statement } = counted(pool);
    const batches = new StatementBatches('probe', statement);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, index) => batches.run({ k: `together-${index}`, amount: index + 1 })));
    expect(answers).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
    expect(sizes.length).toBeLessThanOrEqual(2);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(50);
  });

  it('never runs more statements at once than its limit, and never more inputs in one than its size', async () => {
    const { sizes, statement } = counted(pool);
    let running = 0;
    let most = 0;
    const watched: typeof statement = async (inputs) => {
      running += 1;
      most = Math.max(most, running);
      try {
        return await statement(inputs);
      } finally {
        running -= 1;
      }
    };
    const batches = new StatementBatches('probe', watched, { maxInFlight: 2, maxSize: 8 });
    const waves = await Promise.all(Array.from({ length: 100 }, (_, index) => batches.run({ k: `limited-${index}`, amount: 1 })));
    expect(waves.every((answer) => answer === 1)).toBe(true);
    expect(most).toBe(2);
    expect(Math.max(...sizes)).toBe(8);
  });

  it('answers a request alone at once (no waiting for company)', async () => {
    const { sizes, statement } = counted(pool);
    const batches = new StatementBatches('probe', statement);
    const startedAt = performance.now();
    expect(await batches.run({ k: 'alone', amount: 7 })).toBe(7);
    expect(performance.now() - startedAt).toBeLessThan(1000);
    expect(sizes).toEqual([1]);
  });

  it('refuses only the input the database refuses: the failed statement wrote nothing, the others are sent again alone', async () => {
    const { sizes, statement } = counted(pool);
    const batches = new StatementBatches('probe', statement);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, (_, index) => batches.run({ k: `mixed-${index}`, amount: index === 2 ? -1 : 10 + index })),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ code: '23514' }); // check_violation
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled').map((outcome) => outcome.value)).toEqual([10, 11, 13, 14]);
    expect(sizes).toEqual([5, 1, 1, 1, 1, 1]);
    const { rows } = await pool.query<{ k: string }>(`SELECT k FROM batch_probe WHERE k LIKE 'mixed-%' ORDER BY k`);
    expect(rows.map((row) => row.k)).toEqual(['mixed-0', 'mixed-1', 'mixed-3', 'mixed-4']);
  });

  it('fails every input at once when the database cannot be reached (each request answers "retry later")', async () => {
    const unreachable = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none', connectionTimeoutMillis: 2000 });
    try {
      const { sizes, statement } = counted(unreachable);
      const batches = new StatementBatches('probe', statement);
      const outcomes = await Promise.allSettled(Array.from({ length: 6 }, (_, index) => batches.run({ k: `cut-${index}`, amount: 1 })));
      expect(outcomes.every((outcome) => outcome.status === 'rejected' && isDatabaseUnavailable(outcome.reason))).toBe(true);
      expect(sizes).toEqual([6]);
    } finally {
      await unreachable.end();
    }
  });
});
