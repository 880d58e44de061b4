import { useFormatter, useTranslations } from 'next-intl';

const DUE_NOW_WINDOW_MS = 5_000;

/**
 * How far a time is from `now`, in words of the page's language: "in 3 min" for a future time, "3 min ago" for a past
 * one, and `nowText` within a few seconds either way (never "0 ms ago" for a time still ahead).
 */
export function RelativeTime({ value, now, nowText }: { value: Date; now: Date; nowText?: string }) {
  const format = useFormatter();
  const common = useTranslations('common');
  if (Math.abs(value.getTime() - now.getTime()) < DUE_NOW_WINDOW_MS) return <>{nowText ?? common('time.now')}</>;
  return <>{format.relativeTime(value, { now, style: 'short' })}</>;
}
