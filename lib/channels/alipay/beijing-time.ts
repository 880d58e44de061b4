/** Alipay reads and writes times as `yyyy-MM-dd HH:mm:ss` in Beijing time (UTC+8, no daylight saving). */
const OFFSET_MS = 8 * 60 * 60_000;
const PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

export function formatBeijingTime(at: Date): string {
  return new Date(at.getTime() + OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** undefined when the text is not a valid time in that format. */
export function parseBeijingTime(text: string | undefined): Date | undefined {
  const match = text === undefined ? null : PATTERN.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match.map(Number) as [number, number, number, number, number, number, number];
  const utc = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(utc);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return undefined;
  return new Date(utc - OFFSET_MS);
}
