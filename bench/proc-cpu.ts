import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU accounting from /proc (Linux; elsewhere every figure is undefined). On a shared 2-core machine, CPU time per
 * request is a steadier comparison of two servers than requests per second, which also depends on what else runs.
 */

const TICK_MS = 10; // USER_HZ = 100 on Linux

function ticksOf(pid: number | string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return undefined;
  }
}

/** User + system CPU time of one process (all its threads), in ms. */
export function processCpuMs(pid: number): number | undefined {
  const ticks = ticksOf(pid);
  return ticks === undefined ? undefined : ticks * TICK_MS;
}

/** CPU time (ms) of the PostgreSQL backends serving one database (their title is `postgres: user database host ...`). */
export function databaseBackendsCpuMs(database: string): number | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  let total = 0;
  for (const pid of pids) {
    let title: string;
    try {
      title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!title.startsWith('postgres: ') || !title.split(' ').includes(database)) continue;
    total += ticksOf(pid) ?? 0;
  }
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
