import type { Database } from './client';
import { isDatabaseUnavailable } from './database-failure';
import { prepared } from './prepared';
import { metrics, secondsSince } from '../observability/metrics';

/**
 * One statement for the concurrent requests of one kind (the open API's USDT insert and order lookup): under load the
 * requests that arrive while earlier statements are running go to the database together, as arrays unnested by one
 * prepared statement, so PostgreSQL parses, plans, commits and answers once for all of them, and this process writes
 * and reads one message instead of one each. A request alone is sent at once (the next turn of the event loop): no
 * timer, no wait for company.
 *
 * Each request keeps its own outcome. The statement answers every input by its position; when it fails, a database
 * that cannot be reached fails them all (each is answered "retry later", nothing was written), and any other error is
 * retried input by input, so that one request's bad row never refuses the others (the failed statement wrote nothing:
 * one statement is one transaction).
 */
export type BatchStatement<Input, Output> = (inputs: readonly Input[]) => Promise<Output[]>;

export interface BatchLimits {
  /** Statements of this kind running at once while each answers in time; the requests that come meanwhile wait for the next one. */
  inFlight: number;
  /** Statements at once at most, counting those sent because the running ones were late. */
  maxInFlight: number;
  /** How long a statement may run before it counts as late (a lock wait, a database busy with other work). */
  lateAfterMs: number;
  /** Inputs in one statement at most. */
  maxSize: number;
  /** Whether the next batch is sent before the requests of a statement that answered are answered, or after. */
  nextBeforeAnswers: boolean;
}

/**
 * One statement at a time. While it runs, the next batch gathers; when it answers, the next is sent before this process
 * writes the answered requests' responses, so the database works while this process does. Two at a time halve the
 * batches and their statements contend for a small machine's cores with this process: on 2 cores at 32 connections,
 * rounds of this way answered 10,000-11,600 submits/s, against 7,600-9,400 for two at a time (bench/open-api.ts).
 *
 * A statement that has run 20 ms is late (at full load one answers in 2-3 ms): it may be waiting for a row lock
 * another transaction holds. The requests waiting behind it then go in a second statement.
 * 64 inputs keep one statement's arrays (and its answer) far below a megabyte.
 */
export const DEFAULT_BATCH_LIMITS: BatchLimits = { inFlight: 1, maxInFlight: 2, lateAfterMs: 20, maxSize: 64, nextBeforeAnswers: true };

/**
 * A read keeps the way every batch ran before: two at a time, each batch's requests answered before the next is sent.
 * It commits nothing, so a second statement costs the database little, and one at a time answered no more queries per
 * second (25,400-25,500 both ways at 32 connections).
 */
export const READ_BATCH_LIMITS: BatchLimits = { ...DEFAULT_BATCH_LIMITS, inFlight: 2, nextBeforeAnswers: false };

interface Waiting<Input, Output> {
  input: Input;
  resolve: (output: Output) => void;
  reject: (error: unknown) => void;
}

export class StatementBatches<Input, Output> {
  private readonly waiting: Waiting<Input, Output>[] = [];
  /** When each running statement was sent (performance.now()). */
  private readonly running = new Set<{ sentAt: number }>();
  private scheduled = false;
  private lateCheck: NodeJS.Timeout | undefined;

  constructor(
    /** The statement's name in the metrics (payment_db_statement_batch_size, payment_db_statement_duration_seconds). */
    private readonly name: string,
    private readonly statement: BatchStatement<Input, Output>,
    private readonly limits: BatchLimits = DEFAULT_BATCH_LIMITS,
  ) {}

  /** The statement's answer for this input, sent with the inputs of the requests waiting beside it. */
  run(input: Input): Promise<Output> {
    return new Promise<Output>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      this.schedule();
    });
  }

  /** Whether another statement may go now: fewer than inFlight running in time, fewer than maxInFlight in all. */
  private mayStartAnother(now: number): boolean {
    if (this.running.size >= this.limits.maxInFlight) return false;
    let inTime = 0;
    for (const { sentAt } of this.running) if (now - sentAt < this.limits.lateAfterMs) inTime += 1;
    return inTime < this.limits.inFlight;
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    if (!this.mayStartAnother(performance.now())) return this.checkWhenLate();
    this.scheduled = true;
    // After the current turn's I/O callbacks: the requests read in the same turn share the statement.
    setImmediate(() => {
      this.scheduled = false;
      while (this.waiting.length > 0 && this.mayStartAnother(performance.now())) this.start(this.waiting.splice(0, this.limits.maxSize));
      if (this.waiting.length > 0) this.checkWhenLate();
    });
  }

  /** Requests are waiting behind a running statement: look again when the earliest running one would be late. */
  private checkWhenLate(): void {
    if (this.lateCheck || this.running.size === 0 || this.running.size >= this.limits.maxInFlight) return;
    const earliest = Math.min(...[...this.running].map(({ sentAt }) => sentAt));
    const delay = Math.max(0, earliest + this.limits.lateAfterMs - performance.now());
    this.lateCheck = setTimeout(() => {
      this.lateCheck = undefined;
      this.schedule();
    }, delay);
    this.lateCheck.unref();
  }

  private start(batch: Waiting<Input, Output>[]): void {
    const entry = { sentAt: performance.now() };
    this.running.add(entry);
    void this.send(batch).then((answer) => {
      this.running.delete(entry);
      if (!this.limits.nextBeforeAnswers || this.waiting.length === 0) {
        answer();
        return this.schedule();
      }
      this.schedule();
      setImmediate(answer); // after the next statement is sent (schedule's turn comes first)
    });
  }

  /**
   * Runs the batch's statement and returns how to answer its requests, without answering them yet: the caller frees
   * the statement's place and sends the next batch first, so that the database works on it while this process writes
   * the answered requests' responses.
   */
  private async send(batch: Waiting<Input, Output>[]): Promise<() => void> {
    const { statementBatchSize, statementDuration } = metrics();
    statementBatchSize.observe({ statement: this.name }, batch.length);
    const startedAt = process.hrtime.bigint();
    try {
      const answered = () => statementDuration.observe({ statement: this.name }, secondsSince(startedAt));
      const outputs = await this.statement(batch.map((entry) => entry.input)).finally(answered);
      return () => batch.forEach((entry, index) => entry.resolve(outputs[index]!));
    } catch (error) {
      if (batch.length === 1 || isDatabaseUnavailable(error)) return () => batch.forEach((entry) => entry.reject(error));
      const outcomes = await Promise.allSettled(batch.map((entry) => this.statement([entry.input])));
      return () =>
        outcomes.forEach((outcome, index) => (outcome.status === 'fulfilled' ? batch[index]!.resolve(outcome.value[0]!) : batch[index]!.reject(outcome.reason)));
    }
  }
}

/** The batches of one statement kind on a database handle (its pool, or a transaction's connection), made once. */
export function statementBatches<Input, Output>(
  db: Database,
  name: string,
  statement: (db: Database) => BatchStatement<Input, Output>,
  limits: BatchLimits = DEFAULT_BATCH_LIMITS,
): StatementBatches<Input, Output> {
  return prepared(db, `batches:${name}`, (handle) => new StatementBatches(name, statement(handle), limits));
}
