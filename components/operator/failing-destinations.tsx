import type { FailingDestination } from '@/lib/notifications/failing-destinations';
import { ErrorInWords } from '@/components/i18n/error-in-words';
import { useTranslations } from 'next-intl';
import { LocalTime } from '@/components/i18n/local-time';
import { RelativeTime } from '@/components/i18n/relative-time';
import { Badge, cell, Empty, Section, Table } from './ui';

/** The health page's list of notification destinations failing now: their circuit, since when, what waits for them. */
export function FailingDestinations({ destinations, now }: { destinations: FailingDestination[]; now: Date }) {
  const t = useTranslations('console.destinations');
  return (
    <Section id="destinations-heading" title={t('title')}>
      <p className="mt-0 mb-3 text-sm text-gray-600">{t.rich('intro', { code: (chunks) => <code>{chunks}</code> })}</p>
      {destinations.length === 0 ? (
        <Empty testId="destinations-none">{t('none')}</Empty>
      ) : (
        <Table
          label={t('title')}
          head={[t('destination'), t('circuit'), t('failures'), t('since'), t('lastError'), t('waiting'), t('merchants')]}
        >
          {destinations.map((destination) => (
            <tr key={destination.destination} data-testid={`destination-${destination.destination}`}>
              <td className={`${cell} font-mono text-xs`}>{destination.destination}</td>
              <td className={cell} data-testid="destination-circuit">
                <Badge tone={destination.circuit === 'closed' ? 'warn' : 'bad'}>{t(`circuits.${destination.circuit}`)}</Badge>
                {destination.circuit === 'open' && destination.openUntil ? (
                  <div className="text-xs text-gray-500">
                    {destination.openUntil > now ? (
                      <>
                        {t('probeIn')} <RelativeTime value={destination.openUntil} now={now} />
                      </>
                    ) : (
                      t('probeDue')
                    )}
                  </div>
                ) : null}
              </td>
              <td className={cell} data-testid="destination-failures">
                {destination.consecutiveFailures}
              </td>
              <td className={`${cell} whitespace-nowrap`} data-testid="destination-since">
                <LocalTime value={destination.failingSince} />
                {destination.failingSince ? (
                  <div className="text-xs text-gray-600">
                    <RelativeTime value={destination.failingSince} now={now} />
                  </div>
                ) : null}
              </td>
              <td className={`${cell} max-w-[20rem] text-xs break-words`}>{destination.lastError ? <ErrorInWords error={destination.lastError} /> : '—'}</td>
              <td className={cell}>{destination.pending}</td>
              <td className={`${cell} text-xs`}>{destination.merchants.join(', ') || '—'}</td>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}
