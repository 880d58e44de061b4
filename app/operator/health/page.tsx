import { getTranslations } from 'next-intl/server';
import { ErrorInWords } from '@/components/i18n/error-in-words';
import type { ReactNode } from 'react';
import { LocalTime } from '@/components/i18n/local-time';
import { RelativeTime } from '@/components/i18n/relative-time';
import { FailingDestinations } from '@/components/operator/failing-destinations';
import { Badge, cell, formatDuration, PageTitle, Section, Table } from '@/components/operator/ui';
import { getDb } from '@/lib/db/client';
import { failingDestinations } from '@/lib/notifications/failing-destinations';
import { healthSnapshot } from '@/lib/operator/health';
import { replicaStanding } from '@/lib/db/read-db';
import { requireOperator } from '../_session/require-operator';
import { ChainEndpointsSection } from './chain-endpoints-section';
import { PoolPressureSection } from './pool-pressure-section';
import { ReplicaSection } from './replica-section';
import { RequestBudgetSection } from './request-budget-section';
import { HeldEvmChainsSection } from './held-evm-chains-section';

export const dynamic = 'force-dynamic';

function Figure({ label, value, testId, note }: { label: string; value: ReactNode; testId: string; note?: ReactNode }) {
  return (
    <div className="rounded-lg border border-gray-200 bg-white p-3">
      <dt className="text-xs text-gray-600">{label}</dt>
      <dd className="m-0 mt-1 text-lg font-semibold" data-testid={testId}>
        {value}
      </dd>
      {note ? (
        <dd className="m-0 text-xs text-gray-600" data-testid={`${testId}-note`}>
          {note}
        </dd>
      ) : null}
    </div>
  );
}

export default async function HealthPage() {
  await requireOperator();
  const now = new Date();
  // The health page reads the primary: it is where a lagging replica is diagnosed.
  const [health, destinations, t, units, replica] = await Promise.all([
    healthSnapshot(getDb(), now),
    failingDestinations(getDb(), now),
    getTranslations('console.health'),
    getTranslations('common.duration'),
    replicaStanding(),
  ]);
  const failingNow = destinations.reduce((sum, destination) => sum + destination.pending, 0);
  const oldestDue = health.notifications.oldestDueAt;
  return (
    <>
      <PageTitle
        title={t('title')}
        intro={t.rich('intro', {
          at: health.at.toISOString(),
          time: () => <LocalTime value={health.at} />,
          code: (chunks) => <code>{chunks}</code>,
        })}
      />
      <Section id="chain-heading" title={t('chain')}>
        <dl className="m-0 grid grid-cols-1 gap-3 sm:grid-cols-3">
          <Figure label={t('cursor')} value={<LocalTime value={health.chain.cursorAt} />} testId="chain-cursor" />
          <Figure
            label={t('lag')}
            value={health.chain.lagMs === null ? t('neverRun') : health.chain.behind ? <Badge tone="bad">{formatDuration(health.chain.lagMs, units)}</Badge> : formatDuration(health.chain.lagMs, units)}
            testId="chain-lag"
            note={health.chain.behind ? t('behind', { max: formatDuration(health.chain.maxLagMs, units) }) : t('lagNote')}
          />
          <Figure label={t('cursorSaved')} value={<LocalTime value={health.chain.cursorUpdatedAt} />} testId="chain-cursor-updated" />
        </dl>
      </Section>
      <ChainEndpointsSection now={now} />
      <RequestBudgetSection budgets={health.budgets} />
      <HeldEvmChainsSection />
      <PoolPressureSection pools={health.pools} />
      <ReplicaSection standing={replica} />
      <Section id="queue-heading" title={t('queue')}>
        <dl className="m-0 grid grid-cols-2 gap-3 lg:grid-cols-5">
          <Figure label={t('pending')} value={String(health.notifications.pending)} testId="queue-pending" />
          <Figure label={t('dueNow')} value={String(health.notifications.dueNow)} testId="queue-due" />
          <Figure
            label={t('oldestDue')}
            value={<LocalTime value={oldestDue} />}
            testId="queue-oldest"
            note={oldestDue ? <RelativeTime value={oldestDue} now={now} nowText={t('dueNowNote')} /> : undefined}
          />
          <Figure label={t('failingNow')} value={String(failingNow)} testId="queue-failing-now" note={t('failingNowNote')} />
          <Figure label={t('failed')} value={String(health.notifications.failed)} testId="queue-failed" />
        </dl>
      </Section>
      <FailingDestinations destinations={destinations} now={now} />
      <Section id="jobs-heading" title={t('jobs')}>
        <Table label={t('jobs')} head={[t('job'), t('lastRun'), t('outcome'), t('duration'), t('lastSuccess'), t('lastError'), t('runs')]}>
          {health.jobs.map(({ name, run, stale, staleAfterMs }) => (
            <tr key={name} data-testid={`job-${name}`}>
              <td className={`${cell} text-xs`}>
                <code>{name}</code>
              </td>
              <td className={`${cell} whitespace-nowrap`} data-testid="job-last-run">
                {run ? <LocalTime value={run.lastFinishedAt} /> : t('never')}
              </td>
              <td className={cell} data-testid="job-outcome">
                {run ? <Badge tone={run.lastOutcome === 'ok' && !stale ? 'good' : 'bad'}>{t.has(`outcomes.${run.lastOutcome}`) ? t(`outcomes.${run.lastOutcome}` as 'outcomes.ok') : run.lastOutcome}</Badge> : <Badge tone="neutral">{t('never')}</Badge>}
                {stale ? (
                  <span className="mt-1 block" data-testid="job-stale">
                    <Badge tone="bad">{t('stale', { period: formatDuration(staleAfterMs ?? 0, units) })}</Badge>
                  </span>
                ) : null}
              </td>
              <td className={cell}>{run ? formatDuration(run.lastDurationMs, units) : '—'}</td>
              <td className={`${cell} whitespace-nowrap`}>
                <LocalTime value={run?.lastSuccessAt} />
              </td>
              <td className={`${cell} max-w-[20rem] text-xs break-words`}>
                {run?.lastError ? (
                  <>
                    <LocalTime value={run.lastErrorAt} />: <ErrorInWords error={run.lastError} />
                  </>
                ) : (
                  '—'
                )}
              </td>
              <td className={cell}>{run ? `${run.runCount} / ${run.failureCount}` : '—'}</td>
            </tr>
          ))}
        </Table>
      </Section>
    </>
  );
}
