/**
 * The sandbox chain's clock: the wall clock, unless a simulation has set it (POST /sandbox/tron/clock, or
 * setSandboxTronClock in-process) to run a mainnet hour faster than real time. Blocks are produced, solidified,
 * indexed and rate-limited by this clock, so a watcher driven by the same simulated time sees what it would live.
 */
const registry = globalThis as typeof globalThis & { __sandboxTronNowMs?: number };

export function sandboxNowMs(): number {
  return registry.__sandboxTronNowMs ?? Date.now();
}

/** Sets the simulated time (ms since the epoch), or with undefined goes back to the wall clock. */
export function setSandboxTronClock(nowMs: number | undefined): void {
  if (nowMs !== undefined && (!Number.isSafeInteger(nowMs) || nowMs < 0)) throw new RangeError('nowMs must be a whole number of milliseconds');
  registry.__sandboxTronNowMs = nowMs;
}
