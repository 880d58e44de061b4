import { describe, expect, it } from 'vitest';
import { displayTimeZone, formatInZone, formatUtc } from './time-zone';

describe('display time zone', () => {
  it('is Asia/Shanghai unless DISPLAY_TIME_ZONE names another', () => {
    expect(displayTimeZone({})).toBe('Asia/Shanghai');
    expect(displayTimeZone({ DISPLAY_TIME_ZONE: ' UTC ' })).toBe('UTC');
    expect(displayTimeZone({ DISPLAY_TIME_ZONE: 'Europe/Berlin' })).toBe('Europe/Berlin');
  });

  it('refuses a zone nobody can show, naming the setting', () => {
    expect(() => displayTimeZone({ DISPLAY_TIME_ZONE: 'Mars/Olympus' })).toThrow(/DISPLAY_TIME_ZONE: "Mars\/Olympus"/);
  });
});

describe('formatInZone', () => {
  it('shows the instant in the zone, with the UTC form for the hover', () => {
    const instant = new Date('2026-11-23T06:43:20.500Z');
    expect(formatInZone(instant, 'Asia/Shanghai')).toBe('2026-11-23 14:43:20');
    expect(formatInZone(new Date('2026-11-23T20:00:00Z'), 'Asia/Shanghai')).toBe('2026-11-24 04:00:00');
    expect(formatInZone(new Date('2026-01-01T00:00:00Z'), 'UTC')).toBe('2026-01-01 00:00:00');
    expect(formatUtc(instant)).toBe('2026-11-23 06:43:20');
  });
});
