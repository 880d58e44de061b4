import { channelNameIn } from '@/components/i18n/channel-name';
import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { Badge, cell, Empty, PageTitle, Section, Table, type Tone } from '@/components/operator/ui';
import { CreditFindingButton } from '@/components/operator/credit-finding-button';
import { ErrorInWords } from '@/components/i18n/error-in-words';
import { LocalTime } from '@/components/i18n/local-time';
import { Amount } from '@/components/i18n/amount';
import { amountWriter } from '@/components/i18n/amount-writer';
import { backOfficeDb } from '@/app/_back-office/back-office-db';
import { CHANNELS } from '@/lib/channels';
import { beijingDayBounds, previousBeijingDay } from '@/lib/reconciliation/beijing-day';
import { reconciledDays, reconciliationOfDay, type RunView } from '@/lib/reconciliation/reconciliation-view';
import { isLowSeverity } from '@/lib/reconciliation/finding-severity';
import { requireOperator } from '../_session/require-operator';
import { creditFindingAction, rerunReconciliationAction } from './actions';
import { ConsoleActionForm } from '@/components/operator/console-action-form';

export const dynamic = 'force-dynamic';

const STATUS_TONES: Record<RunView['status'], Tone> = { complete: 'good', unavailable: 'neutral', failed: 'bad' };

async function RunSection({ run }: { run: RunView }) {
  const [t, common, writeAmount] = await Promise.all([getTranslations('console.reconciliation'), getTranslations('common'), amountWriter()]);
  const readable = (total: string) => writeAmount(total, run.currency);
  const channel = channelNameIn(common)(run.channel);
  // 'account:<upstream id>' or 'chain:<network>': the kind in words, the id as it is.
  const [scopeKind = '', scopeId = ''] = run.scope.split(/:(.*)/s);
  const scope = t.has(`scopes.${scopeKind}`) ? t(`scopes.${scopeKind}` as 'scopes.account', { id: scopeId }) : run.scope;
  const clean = run.status === 'complete' && run.findingCount === 0;
  return (
    <Section id={`run-${run.id}`} title={t('runTitle', { channel, scope })}>
      <div className="mb-3 flex flex-wrap items-center gap-3 text-sm" data-testid={`run-${run.channel}`}>
        <Badge tone={clean ? 'good' : run.status === 'complete' ? 'warn' : STATUS_TONES[run.status]}>{t(`status.${run.status}`)}</Badge>
        <span className="whitespace-nowrap">{t('upstreamSide', { count: run.upstreamCount, total: readable(run.upstreamTotal) })}</span>
        <span className="whitespace-nowrap">{t('ourSide', { count: run.oursCount, total: readable(run.oursTotal) })}</span>
        <span className="whitespace-nowrap">{t('refunds', { count: run.upstreamRefundCount, total: readable(run.upstreamRefundTotal) })}</span>
        {run.finishedAt ? <span className="text-gray-600">{t('finished')} <LocalTime value={run.finishedAt} /></span> : null}
      </div>
      {run.status === 'unavailable' ? (
        // No bill yet (the day has not ended, or the upstream has not published it): a wait, not an error.
        <p className="text-sm text-gray-700" data-testid={`no-bill-${run.channel}`}>
          {t('noBillYet')}{' '}
          {run.detail ? (
            <code className="text-[0.85em] break-all text-gray-600" data-technical>
              {run.detail}
            </code>
          ) : null}
        </p>
      ) : run.status !== 'complete' ? (
        <p className="text-sm text-gray-700">{run.detail ? <ErrorInWords error={run.detail} /> : null}</p>
      ) : clean ? (
        <Empty testId={`clean-${run.channel}`}>{t('clean')}</Empty>
      ) : (
        <Table label={t('findingsTable', { channel })} head={[t('findingId'), t('kind'), t('reference'), t('upstreamReference'), t('upstreamAmount'), t('ourAmount'), t('states'), t('action')]}>
          {run.findings.map((finding) => (
            <tr key={finding.id} data-testid={`finding-${finding.reference}`}>
              <td className={`${cell} font-mono`} data-testid="finding-id">
                {finding.id}
              </td>
              <td className={cell}>
                <Badge tone={finding.resolvedAt ? 'good' : isLowSeverity(finding.kind) ? 'neutral' : 'bad'}>{t(`kinds.${finding.kind}`)}</Badge>
              </td>
              <td className={`${cell} font-mono text-xs`}>
                {finding.appId ? (
                  <Link href={`/operator/merchants/${finding.appId}`} className="text-teal-800 underline">
                    {finding.reference}
                  </Link>
                ) : (
                  finding.reference
                )}
                {finding.merchantOrderNo ? <span className="block text-gray-500">{finding.merchantOrderNo}</span> : null}
              </td>
              <td className={`${cell} max-w-[12rem] font-mono text-xs break-all`}>{finding.upstreamReference || '—'}</td>
              <td className={`${cell} font-mono`}>{finding.upstreamAmount ? <Amount value={finding.upstreamAmount} currency={run.currency} /> : '—'}</td>
              <td className={`${cell} font-mono`}>{finding.oursAmount ? <Amount value={finding.oursAmount} currency={run.currency} /> : '—'}</td>
              <td className={`${cell} text-xs`}>
                {finding.upstreamStatus ?? '—'} / {finding.oursStatus ?? '—'}
              </td>
              <td className={cell}>
                {finding.resolvedAt ? (
                  <span className="text-xs">
                    {t('credited', { by: finding.resolvedBy ?? '' })} <LocalTime value={finding.resolvedAt} />
                  </span>
                ) : finding.creditable ? (
                  <CreditFindingButton findingId={finding.id} orderNo={finding.reference} creditFindingAction={creditFindingAction} />
                ) : (
                  '—'
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}

export default async function ReconciliationPage({ searchParams }: { searchParams: Promise<{ day?: string }> }) {
  await requireOperator();
  const asked = (await searchParams).day;
  const day = asked && beijingDayBounds(asked) ? asked : previousBeijingDay(new Date());
  const db = await backOfficeDb(); // the replica unless this person just wrote or it lags
  const [runs, days, t, actions] = await Promise.all([reconciliationOfDay(db, CHANNELS, day), reconciledDays(db), getTranslations('console.reconciliation'), getTranslations('console.operatorActions')]);
  return (
    <>
      <PageTitle title={t('title', { day })} intro={t('intro')} />
      <nav aria-label={t('days')} className="mb-4 flex flex-wrap gap-2 text-sm">
        {days.map((other) => (
          <Link key={other} href={`/operator/reconciliation?day=${other}`} aria-current={other === day ? 'page' : undefined} className={other === day ? 'font-semibold' : 'text-teal-800 underline'}>
            {other}
          </Link>
        ))}
      </nav>
      <Section id="rerun-heading" title={actions('rerunTitle')}>
        <ConsoleActionForm id="rerun-form" label={actions('rerunLabel', { day })} submitLabel={actions('rerunButton', { day })} fields={[]} action={rerunReconciliationAction.bind(null, day)} />
      </Section>
      {runs.length === 0 ? <Empty testId="no-runs">{t('notReconciled')}</Empty> : runs.map((run) => <RunSection key={run.id} run={run} />)}
    </>
  );
}
