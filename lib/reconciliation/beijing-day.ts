/** Reconciliation days are Beijing days (UTC+8), as Alipay's and WeChat Pay's bills are. */
const OFFSET_MS = 8 * 3600_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day's bounds as instants, or undefined when `day` is not a valid yyyy-MM-dd. */
export function beijingDayBounds(day: string): { start: Date; end: Date } | undefined {
  const match = DAY.exec(day);
  if (!match) return undefined;
  const utc = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  if (new Date(utc).toISOString().slice(0, 10) !== day) return undefined;
  return { start: new Date(utc - OFFSET_MS), end: new Date(utc - OFFSET_MS + 86_400_000) };
}

export function beijingDayOf(at: Date): string {
  return new Date(at.getTime() + OFFSET_MS).toISOString().slice(0, 10);
}

/** The Beijing day before the one `at` falls in: the latest day whose bills are published (T+1). */
export function previousBeijingDay(at: Date): string {
  return beijingDayOf(new Date(at.getTime() - 86_400_000));
}
