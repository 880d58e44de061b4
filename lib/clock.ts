/** Time as the domain sees it; tests pass a clock they move by hand instead of sleeping. */
export interface Clock {
  now(): Date;
}

/**
 * Date as the platform made it, taken when this module is first loaded. Once Next.js prepares, it replaces the global
 * Date with a wrapper that reports every clock read to its prerendering (two AsyncLocalStorage lookups a read, about
 * 3% of an open-API submit's CPU). The service's own server (scripts/serve.ts) loads this module before Next.js
 * prepares, so the open API reads the clock without it; where Next.js loaded first (its own route handlers), this
 * is Next.js's Date, and nothing changes. Its instances are Dates like any other (the same prototype).
 */
const PlatformDate: DateConstructor = Date;

/** The current time: `new Date()` without Next.js's wrapper (see PlatformDate). */
export function currentDate(): Date {
  return new PlatformDate();
}

/** The time `epochMilliseconds` after the epoch: `new Date(epochMilliseconds)` without Next.js's wrapper. */
export function dateAt(epochMilliseconds: number): Date {
  return new PlatformDate(epochMilliseconds);
}

/** `new Date(text)` without Next.js's wrapper, which constructs through Reflect.construct when given an argument. */
export function parsedDate(text: string): Date {
  return new PlatformDate(text);
}

/** The last second's ISO text (to the second), kept: Date#toISOString costs about 0.5 µs, and a busy second asks hundreds of times. */
let isoSecond = { second: Number.NaN, text: '' };

/** `date.toISOString()`, with the text of its second reused from the last call in the same second. */
export function isoTimestamp(date: Date): string {
  const milliseconds = date.getTime();
  const second = Math.floor(milliseconds / 1000);
  if (second !== isoSecond.second) {
    const text = date.toISOString(); // throws, as it would, for an invalid date
    if (text.length !== 24) return text; // a year beyond 0000-9999 (±YYYYYY): not worth keeping
    isoSecond = { second, text: text.slice(0, 19) };
    return text;
  }
  return `${isoSecond.text}.${String(milliseconds - second * 1000).padStart(3, '0')}Z`;
}

export const systemClock: Clock = { now: currentDate };

export class ManualClock implements Clock {
  constructor(private current: Date = new Date('2026-01-01T00:00:00Z')) {}
  now(): Date {
    return new Date(this.current.getTime());
  }
  advance(milliseconds: number): void {
    this.current = new Date(this.current.getTime() + milliseconds);
  }
  set(to: Date): void {
    this.current = new Date(to.getTime());
  }
}
