import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU accounting from /proc (Linux; elsewhere every figure is undefined). On a shared 2-core machine, CPU time per
 * request is a steadier comparison of two servers than requests per second, which also depends on what else runs.
 */

const TICK_MS = 10; // USER_HZ = 100 on Linux

interface ProcessTicks {
  /** utime + stime: the process's own CPU time (all its threads). */
  own: number;
  /** When it started (ticks after boot): with the pid, it names one process even when pids are reused. */
  startedAt: string;
}

function ticksOf(pid: number | string): ProcessTicks | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from the 3rd field of proc(5): state
    return { own: Number(fields[11]) + Number(fields[12]), startedAt: fields[19]! };
  } catch {
    return undefined;
  }
}

/** User + system CPU time of one process (all its threads), in ms. */
export function processCpuMs(pid: number): number | undefined {
  const ticks = ticksOf(pid);
  return ticks === undefined ? undefined : ticks.own * TICK_MS;
}

/** Each database's backends as last seen: "pid:start" -> CPU ticks then. */
const backendsSeen = new Map<string, Map<string, number>>();

/**
 * CPU time (ms) of the PostgreSQL backends serving one database (their title is `postgres: user database host ...`),
 * counting every backend ever seen at the time it was last seen. The difference between two readings is then what
 * the database's backends spent in between, also when a pool closed a connection meanwhile: it closes those idle for
 * a while, which spent nothing since. (Summing only the backends running at each reading made such a run's figure
 * negative: the closed connection's whole past left the sum.)
 */
export function databaseBackendsCpuMs(database: string): number | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  let seen = backendsSeen.get(database);
  if (!seen) backendsSeen.set(database, (seen = new Map()));
  for (const pid of pids) {
    let title: string;
    try {
      title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!title.startsWith('postgres: ') || !title.split(' ').includes(database)) continue;
    const ticks = ticksOf(pid);
    if (ticks) seen.set(`${pid}:${ticks.startedAt}`, ticks.own);
  }
  let total = 0;
  for (const ticks of seen.values()) total += ticks;
  return total * TICK_MS;
}

export interface MachineSample {
  busy: number;
  total: number;
}

export function machineSample(): MachineSample | undefined {
  try {
    const values = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = values[3]! + (values[4] ?? 0);
    const total = values.slice(0, 8).reduce((sum, value) => sum + value, 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/** Busy share of all cores between two samples (0..1). */
export function busyShare(from: MachineSample | undefined, to: MachineSample | undefined): number | undefined {
  if (!from || !to || to.total === from.total) return undefined;
  return (to.busy - from.busy) / (to.total - from.total);
}
