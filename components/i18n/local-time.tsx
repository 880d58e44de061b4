import { useTimeZone, useTranslations } from 'next-intl';
import { formatInZone, formatUtc } from '@/lib/i18n/time-zone';

/** A time in the page's zone (Asia/Shanghai unless configured), its UTC form on hover, never broken across lines; `—` when there is none. */
export function LocalTime({ value, className }: { value: Date | null | undefined; className?: string }) {
  const timeZone = useTimeZone() ?? 'UTC';
  const t = useTranslations('common');
  if (!value) return <>—</>;
  return (
    <time dateTime={value.toISOString()} title={t('time.utcTitle', { utc: formatUtc(value) })} className={className ? `whitespace-nowrap ${className}` : 'whitespace-nowrap'} data-testid="local-time">
      {formatInZone(value, timeZone)}
    </time>
  );
}
