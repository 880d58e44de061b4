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

/** `2026-11-23 22:37:11` in the zone: sortable, the same in both languages. */
export function formatInZone(date: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
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
