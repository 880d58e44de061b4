import { describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import { createDatabase, getDb } from '../db/client';
import { runJobExclusively, schedulePeriodicJobs, type PeriodicJob } from './periodic-job';

const log = () => undefined;

describe('periodic jobs', () => {
  it('runs a job in one process at a time: a second process is turned away while the first holds it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    let started!: () => void;
    const firstRunStarted = new Promise<void>((resolve) => (started = resolve));
    const job: PeriodicJob = {
      name: 'exclusive-test',
      intervalMs: 1000,
      async run() {
        runs += 1;
        started();
        await held;
      },
    };
    const otherProcessPool = createDatabase(process.env.DATABASE_URL!, 2);
    const first = runJobExclusively(job, { db: getDb(), clock: systemClock, log });
    // The first holds the job once its run has begun (not after a guessed delay: a loaded machine is slower).
    await firstRunStarted;
    expect(await runJobExclusively(job, { db: otherProcessPool, clock: systemClock, log })).toBe(false);
    release();
    expect(await first).toBe(true);
    expect(await runJobExclusively(job, { db: otherProcessPool, clock: systemClock, log })).toBe(true);
    expect(runs).toBe(2);
    await otherProcessPool.$client.end();
  });

  it('keeps running after a failing run and stops cleanly', async () => {
    let runs = 0;
    const failing: PeriodicJob = {
      name: 'failing-test',
      intervalMs: 20,
      async run() {
        runs += 1;
        throw new Error('upstream down');
      },
    };
    const lines: string[] = [];
    const scheduled = schedulePeriodicJobs([failing], { db: getDb(), clock: systemClock, log: (line) => lines.push(line) });
    // Each run also records itself in job_runs: wait for three runs rather than a fixed time (a loaded machine is slow).
    await expect.poll(() => runs, { timeout: 10_000, interval: 20 }).toBeGreaterThan(2);
    await scheduled.stop();
    expect(runs).toBeGreaterThan(2);
    expect(lines).toEqual(['job failing-test failed: upstream down']); // repeats within a minute are not logged again
  });
});
