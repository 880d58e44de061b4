import { setOrderPermissionAction } from './actions';
import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { PermissionToggle } from '@/components/operator/permission-toggle';
import { Badge, cell, Empty, PageTitle, Pager, Section, Table, buttonClass, inputClass } from '@/components/operator/ui';
import { backOfficeDb } from '@/app/_back-office/back-office-db';
import { listMerchants, ORDER_COUNT_CAP } from '@/lib/operator/merchants';
import { requireOperator } from '../_session/require-operator';
import { LocalTime } from '@/components/i18n/local-time';

export const dynamic = 'force-dynamic';

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function MerchantsPage({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator();
  const db = await backOfficeDb(); // the replica unless this person just wrote or it lags
  const params = await searchParams;
  const q = (first(params.q) ?? '').slice(0, 200);
  const cursor = { before: first(params.before), after: first(params.after) };
  const [result, t] = await Promise.all([listMerchants(db, { q, ...cursor }), getTranslations('console.merchants')]);
  return (
    <>
      <PageTitle
        title={t('title')}
        intro={t('intro')}
      />
      <form role="search" aria-label={t('search')} className="mb-4 flex flex-wrap items-end gap-2" action="/operator/merchants">
        <div className="flex min-w-[14rem] flex-1 flex-col gap-1">
          <label htmlFor="merchant-search" className="text-sm font-semibold">
            {t('query')}
          </label>
          <input id="merchant-search" name="q" type="search" defaultValue={q} className={inputClass} />
        </div>
        <button type="submit" className={buttonClass.primary}>
          {t('searchButton')}
        </button>
        {q ? (
          <Link href="/operator/merchants" className="text-sm text-teal-700 underline">
            {t('clear')}
          </Link>
        ) : null}
      </form>
      <Section id="merchants-heading" title={t('list')}>
        {result.rows.length === 0 ? (
          <Empty testId="no-merchants">{t('none')}</Empty>
        ) : (
          <Table label={t('title')} head={[t('name'), 'AppID', t('orders'), t('pendingCredentials'), t('created'), t('permission')]}>
            {result.rows.map((merchant) => (
              <tr key={merchant.id} data-testid={`merchant-${merchant.appId}`}>
                <td className={cell}>
                  <Link href={`/operator/merchants/${merchant.appId}`} className="font-medium text-teal-800 underline">
                    {merchant.name}
                  </Link>
                </td>
                <td className={`${cell} font-mono text-xs`}>{merchant.appId}</td>
                <td className={cell}>{merchant.orderCount > ORDER_COUNT_CAP ? `${ORDER_COUNT_CAP}+` : merchant.orderCount}</td>
                <td className={cell}>{merchant.pendingCredentials > 0 ? <Badge tone="warn">{merchant.pendingCredentials}</Badge> : '0'}</td>
                <td className={`${cell} whitespace-nowrap`}><LocalTime value={merchant.createdAt} /></td>
                <td className={cell}>
                  <PermissionToggle appId={merchant.appId} name={merchant.name} enabled={merchant.orderPermission} setOrderPermissionAction={setOrderPermissionAction} />
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pager
          newer={result.newer}
          older={result.older}
          paged={Boolean(cursor.before || cursor.after)}
          href={(at) => `/operator/merchants?${new URLSearchParams({ ...(q ? { q } : {}), ...at })}`}
        />
      </Section>
    </>
  );
}
