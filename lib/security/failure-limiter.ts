/**
 * Counts failures per source in fixed windows, in this process's memory: a source that failed `limit` times in the
 * current window is refused until the window ends. Used where an anonymous sender could otherwise make us store or
 * compute without bound (forged upstream callbacks). At most `maxSources` are tracked; past that the oldest windows go
 * first, so memory stays bounded whatever the number of addresses.
 */
export class FailureLimiter {
  private readonly windows = new Map<string, { startedAt: number; failures: number }>();

  constructor(private readonly options: { limit: () => number; windowMs: number; maxSources: number }) {}

  private current(source: string, now: number) {
    const window = this.windows.get(source);
    if (!window || now - window.startedAt >= this.options.windowMs) return undefined;
    return window;
  }

  /** True when the source has used up its failures in the current window. */
  refuses(source: string, now: number): boolean {
    return (this.current(source, now)?.failures ?? 0) >= this.options.limit();
  }

  recordFailure(source: string, now: number): void {
    const window = this.current(source, now);
    if (window) {
      window.failures += 1;
      return;
    }
    this.windows.delete(source);
    if (this.windows.size >= this.options.maxSources) this.forgetOldest(now);
    this.windows.set(source, { startedAt: now, failures: 1 });
  }

  private forgetOldest(now: number): void {
    for (const [source, window] of this.windows) {
      if (now - window.startedAt >= this.options.windowMs) this.windows.delete(source);
    }
    // Maps iterate in insertion order: the first entries are the oldest windows.
    for (const source of this.windows.keys()) {
      if (this.windows.size < this.options.maxSources) break;
      this.windows.delete(source);
    }
  }
}
