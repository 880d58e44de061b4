import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU accounting from /proc (Linux; elsewhere every figure is undefined). On a shared 2-core machine, CPU time per
 * request is a steadier comparison of two servers than requests per second, which also depends on what else runs.
 */

const TICK_MS = 10; // USER_HZ = 100 on Linux

interface ProcessCpu {
  /** The process's own CPU time (all its threads), ms. */
  ms: number;
  /** When it started (ticks after boot): with the pid, it names one process even when pids are reused. */
  startedAt: string;
}

/**
 * CPU time of each of the process's threads as the scheduler counts it (/proc/<pid>/task/<tid>/schedstat, ns).
 * /proc/<pid>/stat's utime and stime are sampled at the timer tick instead, charging a whole tick to whoever runs when
 * it fires: right on average over long steady work, uneven for the bench's processes, which run in bursts of a
 * millisecond or two and hand the cores to each other.
 */
function scheduledMs(pid: number | string): number | undefined {
  try {
    let ns = 0;
    for (const thread of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0]);
    return Number.isFinite(ns) ? ns / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

function cpuOf(pid: number | string): ProcessCpu | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from the 3rd field of proc(5): state
    const ms = scheduledMs(pid) ?? (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    return { ms, startedAt: fields[19]! };
  } catch {
    return undefined;
  }
}

/** User + system CPU time of one process (all its threads), in ms. */
export function processCpuMs(pid: number): number | undefined {
  return cpuOf(pid)?.ms;
}

/** Each database's backends as last seen: "pid:start" -> CPU ms then. */
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
    const cpu = cpuOf(pid);
    if (cpu) seen.set(`${pid}:${cpu.startedAt}`, cpu.ms);
  }
  let total = 0;
  for (const ms of seen.values()) total += ms;
  return total;
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
