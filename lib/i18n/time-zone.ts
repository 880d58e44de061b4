import { DEFAULT_TIME_ZONE } from './locales';

/** True for a zone this runtime knows (`Asia/Shanghai`, `UTC`, …). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * The runtime's own spelling of a zone name (`asia/shanghai` → `Asia/Shanghai`, `Etc/UTC` → `UTC`), or undefined when
 * the runtime does not know it. Offsets (`+08:00`) are not names: PostgreSQL reads their sign the other way round.
 */
export function canonicalTimeZone(value: string): string | undefined {
  const name = value.trim();
  if (name === '' || /^[+-]/.test(name) || !isTimeZone(name)) return undefined;
  return new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
}

/**
 * The zone pages show times in: `DISPLAY_TIME_ZONE` when set, else Asia/Shanghai. A zone the runtime does not know
 * stops here with a message naming the setting rather than showing times in a zone nobody chose.
 */
export function displayTimeZone(env: Record<string, string | undefined> = process.env): string {
  const configured = env.DISPLAY_TIME_ZONE?.trim();
  if (!configured) return DEFAULT_TIME_ZONE;
  if (!isTimeZone(configured)) throw new Error(`DISPLAY_TIME_ZONE: "${configured}" is not a time zone name (e.g. Asia/Shanghai, UTC)`);
  return configured;
}

/** A zone's offset is the same over a quarter hour unless a change falls inside it (checked at both ends). */
const OFFSET_SPAN_MS = 15 * 60_000;
/** Quarter hours remembered per zone: a year of them, then the memory starts again. */
const MAX_REMEMBERED_SPANS = 40_000;

const zoneFormatters = new Map<string, Intl.DateTimeFormat>();
const zoneOffsets = new Map<string, Map<number, number>>();

function zoneFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = zoneFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', era: 'short' });
    zoneFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The zone's offset from UTC at the instant (to the second, as ICU has it), asked of ICU. */
function offsetFromIcu(ms: number, timeZone: string): number {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of zoneFormatter(timeZone).formatToParts(ms)) parts[part.type] = part.value;
  const year = parts.era === 'BC' || parts.era === 'B' ? 1 - Number(parts.year) : Number(parts.year);
  const wallClock = new Date(0);
  wallClock.setUTCFullYear(year, Number(parts.month) - 1, Number(parts.day));
  wallClock.setUTCHours(Number(parts.hour), Number(parts.minute), Number(parts.second), 0);
  return wallClock.getTime() - Math.floor(ms / 1000) * 1000;
}

/**
 * The zone's offset at the instant. ICU is asked once per quarter hour of time and zone (an Intl.DateTimeFormat
 * costs about 50 µs to build and 10 µs to ask; a statement formats two times per row, and a formatter per call held
 * the event loop for 100 ms per page of 1,000 rows): a quarter hour whose two ends differ holds a change and is
 * asked at each instant.
 */
function zoneOffsetAt(ms: number, timeZone: string): number {
  let spans = zoneOffsets.get(timeZone);
  if (!spans) zoneOffsets.set(timeZone, (spans = new Map()));
  const span = Math.floor(ms / OFFSET_SPAN_MS);
  let offset = spans.get(span);
  if (offset === undefined) {
    const start = offsetFromIcu(span * OFFSET_SPAN_MS, timeZone);
    offset = start === offsetFromIcu((span + 1) * OFFSET_SPAN_MS - 1000, timeZone) ? start : Number.NaN;
    if (spans.size >= MAX_REMEMBERED_SPANS) spans.clear();
    spans.set(span, offset);
  }
  return Number.isNaN(offset) ? offsetFromIcu(ms, timeZone) : offset;
}

const two = (value: number) => String(value).padStart(2, '0');

/** `2026-11-23 22:37:11` in the zone: sortable, the same in both languages. */
export function formatInZone(date: Date, timeZone: string): string {
  const local = new Date(date.getTime() + zoneOffsetAt(date.getTime(), timeZone));
  const year = local.getUTCFullYear();
  const yearText = year < 0 ? `-${String(-year).padStart(6, '0')}` : String(year).padStart(4, '0');
  return `${yearText}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())} ${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}`;
}

/** The same instant in UTC, for the hover title. */
export function formatUtc(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** The zone's offset from UTC at that instant as people write it: `UTC+08:00`, `UTC-05:00`, `UTC+00:00`. */
export function utcOffsetLabel(timeZone: string, at: Date): string {
  const offset = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(at).find((part) => part.type === 'timeZoneName')?.value;
  // ICU writes a zero offset as a bare `GMT`.
  return !offset || offset === 'GMT' ? 'UTC+00:00' : offset.replace('GMT', 'UTC');
}

/** The calendar day (`YYYY-MM-DD`) the instant falls on in the zone. */
export function calendarDayInZone(date: Date, timeZone: string): string {
  return formatInZone(date, timeZone).slice(0, 10);
}

/** The zone's offset from UTC at that instant, in ms (Asia/Shanghai: +8 h). */
function zoneOffsetMs(date: Date, timeZone: string): number {
  const wallClock = formatInZone(date, timeZone);
  return Date.parse(`${wallClock.replace(' ', 'T')}Z`) - Math.floor(date.getTime() / 1000) * 1000;
}

/**
 * The instant the zone's calendar day `YYYY-MM-DD` begins (its 00:00). Two passes, so a day that starts on the other
 * side of a daylight-saving change still finds its own offset.
 */
export function startOfDayInZone(day: string, timeZone: string): Date {
  const midnightAsUtc = Date.parse(`${day}T00:00:00Z`);
  let start = midnightAsUtc - zoneOffsetMs(new Date(midnightAsUtc), timeZone);
  start = midnightAsUtc - zoneOffsetMs(new Date(start), timeZone);
  return new Date(start);
}

/** The calendar day `offset` days after `day` (`YYYY-MM-DD`; negative goes back). */
export function addCalendarDays(day: string, offset: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + offset)).toISOString().slice(0, 10);
}
