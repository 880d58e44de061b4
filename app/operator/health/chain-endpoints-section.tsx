import { getTranslations } from 'next-intl/server';
import { ErrorInWords } from '@/components/i18n/error-in-words';
import { Badge, cell, Section, Table, type Tone } from '@/components/operator/ui';
import { getDb } from '@/lib/db/client';
import type { EndpointStatus } from '@/lib/channels/channel-operator';
import { chainEndpointHealth } from '@/lib/operator/chain-endpoint-health';
import { LocalTime } from '@/components/i18n/local-time';

const TONES: Record<EndpointStatus, Tone> = { ok: 'good', blocked: 'warn', failing: 'bad', unused: 'neutral' };

/** The TronGrid endpoints the chain watcher fails over between (TRONGRID_BASE_URLS) and how each last answered. */
export async function ChainEndpointsSection({ now }: { now: Date }) {
  const [endpoints, t] = await Promise.all([chainEndpointHealth(getDb(), now), getTranslations('console.health')]);
  return (
    <Section id="chain-endpoints-heading" title={t('endpoints')}>
      <Table label={t('endpoints')} head={[t('endpoint'), t('status'), t('blockedUntil'), t('failingSince'), t('lastOk'), t('lastError')]}>
        {endpoints.map((endpoint, index) => (
          <tr key={endpoint.label + index} data-testid="chain-endpoint">
            <td className={`${cell} font-mono text-xs break-all`}>{endpoint.label}</td>
            <td className={cell} data-testid="chain-endpoint-status">
              <Badge tone={TONES[endpoint.status]}>{t(`endpointStatus.${endpoint.status}`)}</Badge>
            </td>
            <td className={`${cell} whitespace-nowrap`}><LocalTime value={endpoint.blockedUntil} /></td>
            <td className={`${cell} whitespace-nowrap`}><LocalTime value={endpoint.failingSince} /></td>
            <td className={`${cell} whitespace-nowrap`}><LocalTime value={endpoint.lastOkAt} /></td>
            <td className={`${cell} max-w-[20rem] text-xs break-words`}>{endpoint.lastError ? (
                <>
                  <LocalTime value={endpoint.lastErrorAt} />: <ErrorInWords error={endpoint.lastError} />
                </>
              ) : (
                '—'
              )}</td>
          </tr>
        ))}
      </Table>
    </Section>
  );
}
