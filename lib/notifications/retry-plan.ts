const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Delay before each attempt of a cycle (design): at once, 15 s, 1 min, 3 min, 10 min, 30 min, 1 h, 2 h, 6 h, 15 h. */
export const RETRY_DELAYS_MS = [0, 15 * SECOND, MINUTE, 3 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 6 * HOUR, 15 * HOUR] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length;
/** From the first attempt to the last when each fails at once: 24 h 44 min 15 s. A cycle gives up this long after it is queued. */
export const RETRY_HORIZON_MS = RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);

/**
 * When the attempt after `attemptsMade` failed attempts is due, or undefined when the cycle has failed. Attempts held
 * back by an open circuit shift the plan later; `giveUpAt` keeps its end where it was: no attempt is planned after
 * it, and an attempt that fails after it is the last.
 */
export function nextAttemptAfter(attemptsMade: number, failedAt: Date, giveUpAt?: Date | null): Date | undefined {
  if (attemptsMade >= MAX_ATTEMPTS) return undefined;
  if (giveUpAt && failedAt.getTime() >= giveUpAt.getTime()) return undefined;
  const next = failedAt.getTime() + RETRY_DELAYS_MS[attemptsMade]!;
  return new Date(giveUpAt ? Math.min(next, giveUpAt.getTime()) : next);
}
