import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { buttonClass, cell, Empty, inputClass, PageTitle, Pager, Section, Table } from '@/components/operator/ui';
import { backOfficeDb } from '@/app/_back-office/back-office-db';
import { auditActions, listAuditLog } from '@/lib/operator/audit-log';
import { requireOperator } from '../_session/require-operator';
import { LocalTime } from '@/components/i18n/local-time';

export const dynamic = 'force-dynamic';

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-gray-600">—</span>;
  return <pre className="m-0 max-h-64 max-w-[22rem] overflow-auto rounded bg-gray-50 p-1.5 text-xs break-normal whitespace-pre-wrap [overflow-wrap:break-word]" data-testid="audit-json" tabIndex={0}>{JSON.stringify(value, null, 1)}</pre>;
}

export default async function AuditLogPage({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator();
  const db = await backOfficeDb(); // the replica unless this person just wrote or it lags
  const params = await searchParams;
  const action = (first(params.action) ?? '').slice(0, 100);
  const actor = (first(params.actor) ?? '').slice(0, 200);
  const cursor = { before: first(params.before), after: first(params.after) };
  const [result, actions, t] = await Promise.all([listAuditLog(db, { action, actor, ...cursor }), auditActions(db), getTranslations('console.audit')]);
  const query = (at: { before?: string; after?: string }) =>
    `/operator/audit?${new URLSearchParams({ ...(action ? { action } : {}), ...(actor ? { actor } : {}), ...at })}`;
  return (
    <>
      <PageTitle
        title={t('title')}
        intro={t('intro')}
      />
      <form aria-label={t('filterLabel')} action="/operator/audit" className="mb-4 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <div className="flex flex-col gap-1">
          <label htmlFor="audit-action" className="text-sm font-semibold">
            {t('action')}
          </label>
          <input id="audit-action" name="action" list="audit-actions" defaultValue={action} className={inputClass} aria-describedby="audit-action-hint" />
          <span id="audit-action-hint" className="text-xs text-gray-500">
            {t.rich('actionHint', { code: (chunks) => <code>{chunks}</code> })}
          </span>
          <datalist id="audit-actions">
            {actions.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="audit-actor" className="text-sm font-semibold">
            {t('actor')}
          </label>
          <input id="audit-actor" name="actor" defaultValue={actor} className={inputClass} aria-describedby="audit-actor-hint" />
          <span id="audit-actor-hint" className="text-xs text-gray-500">
            {t.rich('actorHint', { code: (chunks) => <code>{chunks}</code> })}
          </span>
        </div>
        <div className="flex items-center gap-3 sm:pb-5">
          <button type="submit" className={buttonClass.primary}>
            {t('filter')}
          </button>
          {action || actor ? (
            <Link href="/operator/audit" className="text-sm text-teal-700 underline">
              {t('clear')}
            </Link>
          ) : null}
        </div>
      </form>
      <Section id="audit-heading" title={t('entries')}>
        {result.rows.length === 0 ? (
          <Empty testId="no-audit">{t('none')}</Empty>
        ) : (
          <Table label={t('title')} head={[t('when'), t('actor'), t('action'), t('subject'), t('reason'), t('before'), t('after')]}>
            {result.rows.map((row) => (
              <tr key={row.id} data-testid={`audit-${row.id}`}>
                <td className={`${cell} whitespace-nowrap`}><LocalTime value={row.createdAt} /></td>
                <td className={`${cell} text-xs break-all`}>
                  <code>{row.actor}</code>
                </td>
                <td className={`${cell} text-xs`}>
                  <code>{row.action}</code>
                </td>
                <td className={`${cell} text-xs`}>
                  <code>{row.subject}</code>
                </td>
                <td className={`${cell} max-w-[16rem] text-xs break-words`}>{row.reason ?? '—'}</td>
                <td className={cell}>
                  <Json value={row.before} />
                </td>
                <td className={cell}>
                  <Json value={row.after} />
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pager newer={result.newer} older={result.older} paged={Boolean(cursor.before || cursor.after)} href={query} />
      </Section>
    </>
  );
}
