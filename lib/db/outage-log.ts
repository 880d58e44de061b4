import { describeFailure } from './database-failure';
import { log as serviceLog } from '../observability/logger';

/**
 * One log line when the database becomes unreachable and one when it answers again, however many requests fail in
 * between (during an 8 s cut, thousands): the operator sees the outage, its cause and its length, not a flood.
 */
export class OutageLog {
  private since: number | undefined;
  private refused = 0;

  constructor(
    private readonly what: string,
    private readonly log: (line: string) => void = (line) => serviceLog().error({ component: what }, line),
    private readonly clock: () => number = Date.now,
  ) {}

  get inOutage(): boolean {
    return this.since !== undefined;
  }

  /** The clock `answered` compares with. */
  now(): number {
    return this.clock();
  }

  /** A request or run failed because the database is unreachable. */
  failed(error: unknown): void {
    this.refused += 1;
    if (this.since !== undefined) return;
    this.since = this.clock();
    this.log(`${this.what}: database unreachable (${describeFailure(error)}); answering "temporarily unavailable" until it is back`);
  }

  /**
   * Work that began at `startedAt` (a clock reading of `now`) succeeded: ends an outage in progress, with its length
   * and what it cost. Work that began before the outage proves nothing about the database now.
   */
  answered(startedAt: number): void {
    if (this.since === undefined || startedAt < this.since) return;
    const seconds = ((this.clock() - this.since) / 1000).toFixed(1);
    this.log(`${this.what}: database back after ${seconds} s; ${this.refused} failure(s) during the outage`);
    this.since = undefined;
    this.refused = 0;
  }
}
