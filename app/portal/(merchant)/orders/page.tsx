import Link from 'next/link';
import { formatTime, STATUS_LABELS } from '@/components/portal/format';
import { badge, button, control, fieldLabel, fieldWrap, link, note, pageTitle, table, tableWrap, td, th } from '@/components/portal/styles';
import { getDb } from '@/lib/db/client';
import { listMerchantOrders } from '@/lib/portal/list-merchant-orders';
import { parseOrderFilters, PORTAL_CHANNELS, PORTAL_ORDER_STATUSES, type OrderFilters } from '@/lib/portal/order-filters';
import { requireMerchant } from '../../_session/require-merchant';

/** The list with the same filters, at the page above (`after`) or below (`before`) a row. */
function pageHref(filters: OrderFilters, cursor: { before?: string; after?: string }): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, before: undefined, after: undefined, ...cursor })) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  return `/portal/orders?${params.toString()}`;
}

export default async function OrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await requireMerchant();
  const filters = parseOrderFilters(await searchParams);
  const result = await listMerchantOrders(getDb(), merchant, filters);
  return (
    <>
      <h1 className={pageTitle}>Orders · 订单</h1>
      <form
        className="mb-4 grid grid-cols-1 gap-x-4 rounded-xl border border-gray-200 bg-white p-4 pb-0 sm:grid-cols-2 sm:p-5 sm:pb-1 lg:grid-cols-3 xl:grid-cols-6 xl:items-end"
        method="get"
        role="search"
        aria-label="Filter orders · 筛选订单"
      >
        <div className={fieldWrap}>
          <label htmlFor="filter-q" className={fieldLabel}>Order number · 订单号</label>
          <input id="filter-q" className={`${control} h-10`} name="q" defaultValue={filters.q ?? ''} placeholder="merchantOrderNo / orderNo" />
        </div>
        <div className={fieldWrap}>
          <label htmlFor="filter-channel" className={fieldLabel}>Channel · 渠道</label>
          <select id="filter-channel" className={`${control} h-10`} name="channel" defaultValue={filters.channel ?? ''}>
            <option value="">All · 全部</option>
            {PORTAL_CHANNELS.map((channel) => (
              <option key={channel} value={channel}>
                {channel}
              </option>
            ))}
          </select>
        </div>
        <div className={fieldWrap}>
          <label htmlFor="filter-status" className={fieldLabel}>Status · 状态</label>
          <select id="filter-status" className={`${control} h-10`} name="status" defaultValue={filters.status ?? ''}>
            <option value="">All · 全部</option>
            {PORTAL_ORDER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </div>
        <div className={fieldWrap}>
          <label htmlFor="filter-from" className={fieldLabel}>From (UTC) · 开始日期</label>
          <input id="filter-from" className={`${control} h-10`} name="from" type="date" defaultValue={filters.from ?? ''} />
        </div>
        <div className={fieldWrap}>
          <label htmlFor="filter-to" className={fieldLabel}>To (UTC) · 结束日期</label>
          <input id="filter-to" className={`${control} h-10`} name="to" type="date" defaultValue={filters.to ?? ''} />
        </div>
        <div className={`${fieldWrap} items-start justify-end`}>
          <button className={button()} type="submit">
            Filter · 筛选
          </button>
        </div>
      </form>
      <p className={`${note} mb-2`} role="status" data-testid="orders-total">
        {result.rows.length} orders on this page, newest first · 本页 {result.rows.length} 笔，最新在前
      </p>
      {result.rows.length === 0 ? (
        <p className="my-3">No orders match. · 没有符合条件的订单。</p>
      ) : (
        <div className={tableWrap}>
          <table className={table}>
            <thead>
              <tr>
                <th scope="col" className={th}>Merchant order no. · 商户订单号</th>
                <th scope="col" className={th}>Platform order no. · 平台订单号</th>
                <th scope="col" className={th}>Channel · 渠道</th>
                <th scope="col" className={th}>Amount · 金额</th>
                <th scope="col" className={th}>Status · 状态</th>
                <th scope="col" className={th}>Created · 创建时间</th>
                <th scope="col" className={th}>Paid · 支付时间</th>
              </tr>
            </thead>
            <tbody>
              {result.rows.map((order) => (
                <tr key={order.orderNo}>
                  <td className={td}>
                    <Link className={link} href={`/portal/orders/${encodeURIComponent(order.orderNo)}`}>{order.merchantOrderNo}</Link>
                  </td>
                  <td className={`${td} font-mono`}>{order.orderNo}</td>
                  <td className={td}>{order.channel}</td>
                  <td className={td}>
                    {order.amount} {order.currency}
                  </td>
                  <td className={td}>
                    <span className={badge(order.status)}>{STATUS_LABELS[order.status] ?? order.status}</span>
                  </td>
                  <td className={td}>{formatTime(order.createdAt)}</td>
                  <td className={td}>{formatTime(order.paidAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="mt-3 flex flex-wrap items-center gap-4" aria-label="Pages · 分页">
        {filters.before || filters.after ? <Link className={link} href={pageHref(filters, {})}>Newest · 最新</Link> : null}
        {result.newer ? <Link className={link} href={pageHref(filters, { after: result.newer })} rel="prev">← Newer · 上一页</Link> : null}
        {result.older ? <Link className={link} href={pageHref(filters, { before: result.older })} rel="next">Older · 下一页 →</Link> : null}
      </nav>
    </>
  );
}
