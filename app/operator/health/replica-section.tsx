import { getTranslations } from 'next-intl/server';
import { Badge, Empty, formatDuration, Section } from '@/components/operator/ui';
import type { ReplicaStanding } from '@/lib/db/read-db';

/**
 * The back office's replica (DATABASE_REPLICA_URL): how far behind the primary it is, and whether the lists read it
 * or, past DATABASE_REPLICA_MAX_LAG_SECONDS or unmeasured, the primary (the figure the DatabaseReplicaBehind alert reads).
 */
export async function ReplicaSection({ standing }: { standing: ReplicaStanding }) {
  const [t, units] = await Promise.all([getTranslations('console.health'), getTranslations('common.duration')]);
  if (!standing.configured) {
    return (
      <Section id="replica-heading" title={t('replica')}>
        <Empty testId="replica-none">{t('replicaNone')}</Empty>
      </Section>
    );
  }
  const lag = standing.lagSeconds === null ? t('replicaUnmeasured') : Number.isFinite(standing.lagSeconds) ? formatDuration(Math.round(standing.lagSeconds * 1000), units) : '∞';
  return (
    <Section id="replica-heading" title={t('replica')}>
      <dl className="m-0 grid grid-cols-1 gap-3 sm:grid-cols-2">
        <div className="rounded-lg border border-gray-200 bg-white p-3">
          <dt className="text-xs text-gray-600">{t('replicaLag')}</dt>
          <dd className="m-0 mt-1 text-lg font-semibold" data-testid="replica-lag">
            {standing.readsReplica ? lag : <Badge tone="bad">{lag}</Badge>}
          </dd>
          <dd className="m-0 text-xs text-gray-600">{t('replicaMaxLag', { max: formatDuration(standing.maxLagSeconds * 1000, units) })}</dd>
        </div>
        <div className="rounded-lg border border-gray-200 bg-white p-3">
          <dt className="text-xs text-gray-600">{t('replicaReads')}</dt>
          <dd className="m-0 mt-1 text-lg font-semibold" data-testid="replica-reads">
            {standing.readsReplica ? t('replicaReadsReplica') : <Badge tone="warn">{t('replicaReadsPrimary')}</Badge>}
          </dd>
          <dd className="m-0 text-xs text-gray-600">{t('replicaReadsNote')}</dd>
        </div>
      </dl>
    </Section>
  );
}
