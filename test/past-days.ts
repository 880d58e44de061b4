import { beijingDayOf } from '../lib/reconciliation/beijing-day';

/**
 * Days long past that no other test in this process is given: a bill for one holds only what its test put in it.
 * Random days collided (two tests of one file drew the same day one run in about fifty, and each saw the other's
 * findings), so the days are consecutive from a random start; each test file has a database of its own, and the
 * random start keeps reruns on a shared database apart.
 */
const DAY_MS = 86_400_000;
const FIRST = Date.UTC(2021, 0, 1) + Math.floor(Math.random() * 1400) * DAY_MS;
let handedOut = 0;

/** A Beijing calendar day (YYYY-MM-DD) between 2021 and 2025 that this process has not handed out before. */
export function aDistinctPastDay(): string {
  return beijingDayOf(new Date(FIRST + handedOut++ * DAY_MS));
}
