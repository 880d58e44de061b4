const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Delay before each attempt of a cycle (design): at once, 15 s, 1 min, 3 min, 10 min, 30 min, 1 h, 2 h, 6 h, 15 h. */
export const RETRY_DELAYS_MS = [0, 15 * SECOND, MINUTE, 3 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 6 * HOUR, 15 * HOUR] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length;

/** When the attempt after `attemptsMade` failed attempts is due, or undefined when the cycle has failed. */
export function nextAttemptAfter(attemptsMade: number, failedAt: Date): Date | undefined {
  if (attemptsMade >= MAX_ATTEMPTS) return undefined;
  return new Date(failedAt.getTime() + RETRY_DELAYS_MS[attemptsMade]!);
}
