import { useTimeZone, useTranslations } from 'next-intl';
import type { FailingDestination } from '@/lib/notifications/failing-destinations';
import { formatInZone } from '@/lib/i18n/time-zone';
import { useErrorWords } from '@/components/i18n/error-in-words';
import { mono } from './styles';

const notice = 'mb-4 mt-0 rounded-md border border-amber-300 bg-amber-50 px-3 py-2.5 text-sm text-amber-900';

/**
 * Tells a merchant that a host of its notifyUrl is not answering now, before the retries run out: how long, how
 * often, and that its notifications wait for it without using their retries.
 */
export function FailingDestinationsNotice({ destinations }: { destinations: FailingDestination[] }) {
  const t = useTranslations('portal.failing');
  const timeZone = useTimeZone() ?? 'UTC';
  // Node's error codes (ECONNREFUSED…) in the reader's words.
  const errorInWords = useErrorWords();
  if (destinations.length === 0) return null;
  const state = (destination: FailingDestination) => {
    if (destination.circuit === 'probing') return t('probing');
    if (destination.circuit === 'open' && destination.openUntil) return t('paused', { until: formatInZone(destination.openUntil, timeZone) });
    return t('retrying');
  };
  return (
    <div className={notice} role="status" data-testid="failing-destinations">
      <p className="m-0 font-semibold">{t('title')}</p>
      <ul className="m-0 mt-1 list-disc pl-5">
        {destinations.map((destination) => (
          <li key={destination.destination} data-testid={`failing-${destination.destination}`}>
            {t.rich('line', {
              dest: (chunks) => <span className={mono}>{chunks}</span>,
              destination: destination.destination,
              count: destination.consecutiveFailures,
              since: destination.failingSince ? formatInZone(destination.failingSince, timeZone) : '—',
              when: (chunks) => (destination.failingSince ? <time dateTime={destination.failingSince.toISOString()}>{chunks}</time> : chunks),
              error: destination.lastError ? errorInWords(destination.lastError) : t('noAnswer'),
              state: state(destination),
              pending: destination.pending,
            })}
          </li>
        ))}
      </ul>
      <p className="m-0 mt-1">{t('keep')}</p>
    </div>
  );
}
