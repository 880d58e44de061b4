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
  /** Statements of this kind running at once; the requests that come meanwhile wait for the next one. */
  maxInFlight: number;
  /** Inputs in one statement at most. */
  maxSize: number;
}

/**
 * Two statements at once keep both of PostgreSQL's cores of a small machine busy while the next batch gathers; 64
 * inputs keep one statement's arrays (and its answer) far below a megabyte.
 */
export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxInFlight: 2, maxSize: 64 };

interface Waiting<Input, Output> {
  input: Input;
  resolve: (output: Output) => void;
  reject: (error: unknown) => void;
}

export class StatementBatches<Input, Output> {
  private readonly waiting: Waiting<Input, Output>[] = [];
  private inFlight = 0;
  private scheduled = false;

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

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.limits.maxInFlight || this.waiting.length === 0) return;
    this.scheduled = true;
    // After the current turn's I/O callbacks: the requests read in the same turn share the statement.
    setImmediate(() => {
      this.scheduled = false;
      while (this.inFlight < this.limits.maxInFlight && this.waiting.length > 0) {
        this.inFlight += 1;
        void this.send(this.waiting.splice(0, this.limits.maxSize)).finally(() => {
          this.inFlight -= 1;
          this.schedule();
        });
      }
    });
  }

  private async send(batch: Waiting<Input, Output>[]): Promise<void> {
    const { statementBatchSize, statementDuration } = metrics();
    statementBatchSize.observe({ statement: this.name }, batch.length);
    const startedAt = process.hrtime.bigint();
    let outputs: Output[];
    try {
      const answered = () => statementDuration.observe({ statement: this.name }, secondsSince(startedAt));
      outputs = await this.statement(batch.map((entry) => entry.input)).finally(answered);
    } catch (error) {
      if (batch.length === 1 || isDatabaseUnavailable(error)) {
        for (const entry of batch) entry.reject(error);
        return;
      }
      await Promise.all(batch.map((entry) => this.statement([entry.input]).then(([output]) => entry.resolve(output!), entry.reject)));
      return;
    }
    batch.forEach((entry, index) => entry.resolve(outputs[index]!));
  }
}

/** The batches of one statement kind on a database handle (its pool, or a transaction's connection), made once. */
export function statementBatches<Input, Output>(db: Database, name: string, statement: (db: Database) => BatchStatement<Input, Output>): StatementBatches<Input, Output> {
  return prepared(db, `batches:${name}`, (handle) => new StatementBatches(name, statement(handle)));
}
