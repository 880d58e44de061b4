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

  it.each([1, 2])('runs %i statement(s) at once while each answers in time, and never more inputs in one than its size', async (inFlight) => {
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
    const batches = new StatementBatches('probe', watched, { inFlight, maxInFlight: 2, lateAfterMs: 60_000, maxSize: 8, nextBeforeAnswers: true });
    const waves = await Promise.all(Array.from({ length: 100 }, (_, index) => batches.run({ k: `limited-${inFlight}-${index}`, amount: 1 })));
    expect(waves.every((answer) => answer === 1)).toBe(true);
    expect(most).toBe(inFlight);
    expect(Math.max(...sizes)).toBe(8);
  });

  it('sends the next batch before it answers the requests of the statement that answered', async () => {
    const { statement } = counted(pool);
    const events: string[] = [];
    let firstSent!: () => void;
    const firstRunning = new Promise<void>((resolve) => (firstSent = resolve));
    const logged: typeof statement = (inputs) => {
      events.push(`sent ${inputs.map((input) => input.k).join(',')}`);
      firstSent();
      return statement(inputs);
    };
    const batches = new StatementBatches('probe', logged, { inFlight: 1, maxInFlight: 2, lateAfterMs: 60_000, maxSize: 64, nextBeforeAnswers: true });
    const first = batches.run({ k: 'early-a', amount: 1 }).then(() => events.push('answered early-a'));
    await firstRunning;
    await Promise.all([first, batches.run({ k: 'early-b', amount: 2 }), batches.run({ k: 'early-c', amount: 3 })]);
    expect(events).toEqual(['sent early-a', 'sent early-b,early-c', 'answered early-a']);
  });

  it('sends the requests waiting behind a late statement (a row lock held elsewhere) in a second one, and no third', async () => {
    const { sizes, statement } = counted(pool);
    const holder = await pool.connect();
    const answeredAt = new Map<string, number>();
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    try {
      await holder.query('BEGIN');
      await holder.query(`INSERT INTO batch_probe (k, amount) VALUES ('late-held-1', 1), ('late-held-2', 1)`);
      const batches = new StatementBatches('probe', statement, { inFlight: 1, maxInFlight: 2, lateAfterMs: 50, maxSize: 64, nextBeforeAnswers: true });
      const run = (k: string) => batches.run({ k, amount: 5 }).then((answer) => (answeredAt.set(k, performance.now()), answer));
      // Waits for the holder's uncommitted row with its key: late after 50 ms.
      const firstHeld = run('late-held-1');
      await pause(10);
      expect(await run('late-free'), 'sent in a second statement once the first was late, answered while it waits').toBe(5);
      const secondHeld = run('late-held-2');
      await pause(150);
      const behind = run('late-behind');
      await pause(150);
      expect([...answeredAt.keys()], 'two statements wait on the lock; the next request waits for one of them').toEqual(['late-free']);
      const committedAt = performance.now();
      await holder.query('COMMIT');
      expect(await Promise.all([firstHeld, secondHeld, behind])).toEqual([undefined, undefined, 5]);
      expect(answeredAt.get('late-behind')!).toBeGreaterThan(committedAt);
      expect(sizes).toEqual([1, 1, 1, 1]);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      holder.release();
    }
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
