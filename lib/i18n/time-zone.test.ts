import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, displayTimeZone, formatInZone, formatUtc, utcOffsetLabel } from './time-zone';

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

describe('canonicalTimeZone', () => {
  it('spells a known zone the runtime’s way and knows no offset or unknown name', () => {
    expect(canonicalTimeZone('Asia/Shanghai')).toBe('Asia/Shanghai');
    expect(canonicalTimeZone(' asia/tokyo ')).toBe('Asia/Tokyo');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    for (const name of ['Mars/Olympus', '+08:00', '-05:00', '', '   ']) expect(canonicalTimeZone(name), name).toBeUndefined();
  });
});

describe('utcOffsetLabel', () => {
  it('writes the offset at that instant, daylight saving included', () => {
    expect(utcOffsetLabel('Asia/Shanghai', new Date('2026-11-23T00:00:00Z'))).toBe('UTC+08:00');
    expect(utcOffsetLabel('UTC', new Date('2026-11-23T00:00:00Z'))).toBe('UTC+00:00');
    expect(utcOffsetLabel('America/New_York', new Date('2026-11-23T00:00:00Z'))).toBe('UTC-05:00');
    expect(utcOffsetLabel('America/New_York', new Date('2026-07-01T00:00:00Z'))).toBe('UTC-04:00');
  });
});
