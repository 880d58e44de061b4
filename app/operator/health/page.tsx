import { Badge, cell, formatDuration, formatTime, PageTitle, Section, Table } from '@/components/operator/ui';
import { FailingDestinations } from '@/components/operator/failing-destinations';
import { getDb } from '@/lib/db/client';
import { failingDestinations } from '@/lib/notifications/failing-destinations';
import { healthSnapshot } from '@/lib/operator/health';
import { requireOperator } from '../_session/require-operator';
import { ChainEndpointsSection } from './chain-endpoints-section';

export const dynamic = 'force-dynamic';

function Figure({ label, value, testId, note }: { label: string; value: string; testId: string; note?: string }) {
  return (
    <div className="rounded-lg border border-gray-200 bg-white p-3">
      <dt className="text-xs text-gray-500">{label}</dt>
      <dd className="m-0 mt-1 text-lg font-semibold" data-testid={testId}>
        {value}
      </dd>
      {note ? <dd className="m-0 text-xs text-gray-500">{note}</dd> : null}
    </div>
  );
}

export default async function HealthPage() {
  await requireOperator();
  const now = new Date();
  const [health, destinations] = await Promise.all([healthSnapshot(getDb(), now), failingDestinations(getDb(), now)]);
  return (
    <>
      <PageTitle
        title="Health · 运行状态"
        intro={
          <>
            As of {formatTime(health.at)}. Probes for load balancers: <code>GET /healthz</code> (liveness) and <code>GET /readyz</code> (database and
            migrations). / 负载均衡探针：/healthz（存活）与 /readyz（数据库与迁移）。
          </>
        }
      />
      <Section id="chain-heading" title="USDT chain watcher · 链上监听">
        <dl className="m-0 grid grid-cols-1 gap-3 sm:grid-cols-3">
          <Figure label="Cursor (last block time read) · 游标" value={formatTime(health.chain.cursorAt)} testId="chain-cursor" />
          <Figure label="Lag · 延迟" value={health.chain.lagMs === null ? 'never run · 未运行' : formatDuration(health.chain.lagMs)} testId="chain-lag" note="now − cursor" />
          <Figure label="Cursor saved · 游标更新时间" value={formatTime(health.chain.cursorUpdatedAt)} testId="chain-cursor-updated" />
        </dl>
      </Section>
      <ChainEndpointsSection now={now} />
      <Section id="queue-heading" title="Notification queue · 通知队列">
        <dl className="m-0 grid grid-cols-2 gap-3 sm:grid-cols-4">
          <Figure label="Pending · 待发送" value={String(health.notifications.pending)} testId="queue-pending" />
          <Figure label="Due now · 已到期" value={String(health.notifications.dueNow)} testId="queue-due" />
          <Figure
            label="Oldest due · 最早到期"
            value={formatTime(health.notifications.oldestDueAt)}
            testId="queue-oldest"
            note={health.notifications.oldestDueAt ? `${formatDuration(Math.max(0, now.getTime() - health.notifications.oldestDueAt.getTime()))} ago` : undefined}
          />
          <Figure label="Failed (all attempts) · 全部失败" value={String(health.notifications.failed)} testId="queue-failed" />
        </dl>
      </Section>
      <FailingDestinations destinations={destinations} now={now} />
      <Section id="jobs-heading" title="Periodic jobs · 定时任务">
        <Table label="Periodic jobs · 定时任务" head={['Job · 任务', 'Last run · 最近运行', 'Outcome · 结果', 'Duration · 耗时', 'Last success · 最近成功', 'Last error · 最近错误', 'Runs / failures · 次数']}>
          {health.jobs.map(({ name, run }) => (
            <tr key={name} data-testid={`job-${name}`}>
              <td className={`${cell} font-mono text-xs`}>{name}</td>
              <td className={`${cell} whitespace-nowrap`} data-testid="job-last-run">
                {run ? formatTime(run.lastFinishedAt) : 'never · 从未'}
              </td>
              <td className={cell}>{run ? <Badge tone={run.lastOutcome === 'ok' ? 'good' : 'bad'}>{run.lastOutcome}</Badge> : <Badge tone="neutral">never</Badge>}</td>
              <td className={cell}>{run ? formatDuration(run.lastDurationMs) : '—'}</td>
              <td className={`${cell} whitespace-nowrap`}>{formatTime(run?.lastSuccessAt)}</td>
              <td className={`${cell} max-w-[20rem] text-xs break-words`}>{run?.lastError ? `${formatTime(run.lastErrorAt)}: ${run.lastError}` : '—'}</td>
              <td className={cell}>{run ? `${run.runCount} / ${run.failureCount}` : '—'}</td>
            </tr>
          ))}
        </Table>
      </Section>
    </>
  );
}
