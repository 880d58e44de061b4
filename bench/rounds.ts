import type { PgbenchResult } from './pgbench';

/**
 * Each case of the benchmark runs as several short rounds, the targets and pgbench taking turns, and is judged on the
 * median round. On a shared 2-core VM one run of ten seconds moved by a fifth from one minute to the next (pgbench's
 * own rate went from 15,000 to 21,000 inserts/s between back-to-back runs): a single run made every ratio a draw of
 * that noise, while a median of alternating rounds gives each target the same minutes and drops the odd one out.
 */

/** CPU time per completed request (µs) of the server process, its PostgreSQL backends and the load generator. */
export interface RunCpu {
  serverUs?: number;
  databaseUs?: number;
  clientUs: number;
  /** Share of both cores busy during the run, and how much of it was none of the above (other work on the machine). */
  machineBusy?: number;
  otherBusy?: number;
}

/** What one run measured: throughput, latency, errors and CPU. */
export interface RunFigures {
  rps: number;
  p50: number;
  p99: number;
  responses: number;
  /** non-2xx, envelope code != 0, connection errors and timeouts */
  errors: number;
  errorSamples: string[];
  cpu?: RunCpu;
}

/** The middle value (the mean of the two middle ones for an even count); undefined for none. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function medianOfPresent(values: readonly (number | undefined)[]): number | undefined {
  return median(values.filter((value): value is number => value !== undefined));
}

/**
 * The rounds of one case as one result: each figure the median of the rounds' (rates, latencies and CPU alike), and
 * every response and error of every round counted, so that an error in any round still fails the case.
 */
export function combineRounds<Result extends RunFigures>(rounds: readonly Result[]): Result {
  if (rounds.length === 0) throw new RangeError('no rounds to combine');
  const cpus = rounds.map((round) => round.cpu).filter((cpu): cpu is RunCpu => cpu !== undefined);
  const cpu: RunCpu | undefined =
    cpus.length === 0
      ? undefined
      : {
          serverUs: medianOfPresent(cpus.map((entry) => entry.serverUs)),
          databaseUs: medianOfPresent(cpus.map((entry) => entry.databaseUs)),
          clientUs: median(cpus.map((entry) => entry.clientUs))!,
          machineBusy: medianOfPresent(cpus.map((entry) => entry.machineBusy)),
          otherBusy: medianOfPresent(cpus.map((entry) => entry.otherBusy)),
        };
  return {
    ...rounds[0]!,
    rps: median(rounds.map((round) => round.rps))!,
    p50: median(rounds.map((round) => round.p50))!,
    p99: median(rounds.map((round) => round.p99))!,
    responses: rounds.reduce((sum, round) => sum + round.responses, 0),
    errors: rounds.reduce((sum, round) => sum + round.errors, 0),
    errorSamples: rounds.flatMap((round) => round.errorSamples).slice(0, 5),
    cpu,
  };
}

/** pgbench's rounds of one case: the median rate and latency, with the fewest clients any round could open. */
export function combinePgbenchRounds(rounds: readonly PgbenchResult[]): PgbenchResult {
  if (rounds.length === 0) throw new RangeError('no rounds to combine');
  return {
    tps: median(rounds.map((round) => round.tps))!,
    clients: Math.min(...rounds.map((round) => round.clients)),
    latencyMs: median(rounds.map((round) => round.latencyMs))!,
  };
}

/**
 * Requests per second the machine's cores could answer at most, were they busy with nothing but this work: the CPU
 * one request costs the server, its PostgreSQL backends and the load generator together is all it may take. Undefined when
 * a part was not measured. It says how far a target is from what the machine can do at the work's own price.
 */
export function cpuCeiling(cpu: RunCpu | undefined, cores: number): number | undefined {
  if (!cpu || cpu.serverUs === undefined || cpu.databaseUs === undefined) return undefined;
  const perRequestUs = cpu.serverUs + cpu.databaseUs + cpu.clientUs;
  return perRequestUs > 0 ? (cores * 1_000_000) / perRequestUs : undefined;
}
