import Link from 'next/link';
import { PermissionToggle } from '@/components/operator/permission-toggle';
import { Badge, cell, Empty, formatTime, PageTitle, Pager, Section, Table, buttonClass, inputClass } from '@/components/operator/ui';
import { getDb } from '@/lib/db/client';
import { listMerchants, ORDER_COUNT_CAP } from '@/lib/operator/merchants';
import { requireOperator } from '../_session/require-operator';

export const dynamic = 'force-dynamic';

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function MerchantsPage({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator();
  const params = await searchParams;
  const q = (first(params.q) ?? '').slice(0, 200);
  const cursor = { before: first(params.before), after: first(params.after) };
  const result = await listMerchants(getDb(), { q, ...cursor });
  return (
    <>
      <PageTitle
        title="Merchants · 商户"
        intro="Search by name or AppID. Order permission off: the open API answers 1004 to the merchant's orders. / 按名称或 AppID 搜索。关闭下单权限后，开放接口对该商户的下单返回 1004。"
      />
      <form role="search" aria-label="Search merchants · 搜索商户" className="mb-4 flex flex-wrap items-end gap-2" action="/operator/merchants">
        <div className="flex min-w-[14rem] flex-1 flex-col gap-1">
          <label htmlFor="merchant-search" className="text-sm font-semibold">
            Name or AppID · 名称或 AppID
          </label>
          <input id="merchant-search" name="q" type="search" defaultValue={q} className={inputClass} />
        </div>
        <button type="submit" className={buttonClass.primary}>
          Search · 搜索
        </button>
        {q ? (
          <Link href="/operator/merchants" className="text-sm text-teal-700 underline">
            Clear · 清除
          </Link>
        ) : null}
      </form>
      <Section id="merchants-heading" title="Merchants, newest first · 商户（最新在前）">
        {result.rows.length === 0 ? (
          <Empty testId="no-merchants">No merchant matches. · 没有匹配的商户。</Empty>
        ) : (
          <Table label="Merchants · 商户" head={['Name · 名称', 'AppID', 'Orders · 订单', 'Pending credentials · 待审凭证', 'Created · 创建', 'Order permission · 下单权限']}>
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
                <td className={`${cell} whitespace-nowrap`}>{formatTime(merchant.createdAt)}</td>
                <td className={cell}>
                  <PermissionToggle appId={merchant.appId} name={merchant.name} enabled={merchant.orderPermission} />
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
