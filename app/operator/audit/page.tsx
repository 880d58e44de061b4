import Link from 'next/link';
import { buttonClass, cell, Empty, formatTime, inputClass, PageTitle, Pager, Section, Table } from '@/components/operator/ui';
import { getDb } from '@/lib/db/client';
import { auditActions, listAuditLog } from '@/lib/operator/audit-log';
import { requireOperator } from '../_session/require-operator';

export const dynamic = 'force-dynamic';

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-gray-400">—</span>;
  return <pre className="m-0 max-w-[22rem] overflow-x-auto rounded bg-gray-50 p-1.5 text-xs whitespace-pre-wrap break-all">{JSON.stringify(value, null, 1)}</pre>;
}

export default async function AuditLogPage({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator();
  const params = await searchParams;
  const action = (first(params.action) ?? '').slice(0, 100);
  const actor = (first(params.actor) ?? '').slice(0, 200);
  const cursor = { before: first(params.before), after: first(params.after) };
  const [result, actions] = await Promise.all([listAuditLog(getDb(), { action, actor, ...cursor }), auditActions(getDb())]);
  const query = (at: { before?: string; after?: string }) =>
    `/operator/audit?${new URLSearchParams({ ...(action ? { action } : {}), ...(actor ? { actor } : {}), ...at })}`;
  return (
    <>
      <PageTitle
        title="Audit log · 审计日志"
        intro="Every operator and merchant action that changes something: who, when, what, why, before and after (never a secret). Written in the same transaction as the action. / 所有变更操作：操作人、时间、内容、原因、变更前后（不含密钥），与操作在同一事务中写入。"
      />
      <form aria-label="Filter the audit log · 筛选审计日志" action="/operator/audit" className="mb-4 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <div className="flex flex-col gap-1">
          <label htmlFor="audit-action" className="text-sm font-semibold">
            Action · 操作
          </label>
          <input id="audit-action" name="action" list="audit-actions" defaultValue={action} className={inputClass} aria-describedby="audit-action-hint" />
          <span id="audit-action-hint" className="text-xs text-gray-500">
            Exact, or a family ending in “.” (e.g. credential.) · 精确匹配，或以“.”结尾的前缀
          </span>
          <datalist id="audit-actions">
            {actions.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="audit-actor" className="text-sm font-semibold">
            Actor · 操作人
          </label>
          <input id="audit-actor" name="actor" defaultValue={actor} className={inputClass} aria-describedby="audit-actor-hint" />
          <span id="audit-actor-hint" className="text-xs text-gray-500">
            Part of an email or cli:user · 邮箱或 cli:用户 的一部分
          </span>
        </div>
        <div className="flex items-center gap-3 sm:pb-5">
          <button type="submit" className={buttonClass.primary}>
            Filter · 筛选
          </button>
          {action || actor ? (
            <Link href="/operator/audit" className="text-sm text-teal-700 underline">
              Clear · 清除
            </Link>
          ) : null}
        </div>
      </form>
      <Section id="audit-heading" title="Entries, newest first · 记录（最新在前）">
        {result.rows.length === 0 ? (
          <Empty testId="no-audit">No entries. · 无记录。</Empty>
        ) : (
          <Table label="Audit log · 审计日志" head={['When · 时间', 'Actor · 操作人', 'Action · 操作', 'Subject · 对象', 'Reason / note · 原因', 'Before · 变更前', 'After · 变更后']}>
            {result.rows.map((row) => (
              <tr key={row.id} data-testid={`audit-${row.id}`}>
                <td className={`${cell} whitespace-nowrap`}>{formatTime(row.createdAt)}</td>
                <td className={`${cell} text-xs break-all`}>{row.actor}</td>
                <td className={`${cell} font-mono text-xs`}>{row.action}</td>
                <td className={`${cell} font-mono text-xs`}>{row.subject}</td>
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
