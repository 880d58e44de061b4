import Link from 'next/link';
import { formatTime, STATUS_LABELS } from '@/components/portal/format';
import { getDb } from '@/lib/db/client';
import { listMerchantOrders } from '@/lib/portal/list-merchant-orders';
import { parseOrderFilters, PORTAL_CHANNELS, PORTAL_ORDER_STATUSES, type OrderFilters } from '@/lib/portal/order-filters';
import { requireMerchant } from '../../_session/require-merchant';

function pageHref(filters: OrderFilters, page: number): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, page })) if (value !== undefined && value !== '') params.set(key, String(value));
  return `/portal/orders?${params.toString()}`;
}

export default async function OrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await requireMerchant();
  const filters = parseOrderFilters(await searchParams);
  const result = await listMerchantOrders(getDb(), merchant, filters);
  return (
    <>
      <h1>Orders · 订单</h1>
      <form className="card filters" method="get" role="search" aria-label="Filter orders · 筛选订单">
        <div className="field">
          <label htmlFor="filter-q">Order number · 订单号</label>
          <input id="filter-q" name="q" defaultValue={filters.q ?? ''} placeholder="merchantOrderNo / orderNo" />
        </div>
        <div className="field">
          <label htmlFor="filter-channel">Channel · 渠道</label>
          <select id="filter-channel" name="channel" defaultValue={filters.channel ?? ''}>
            <option value="">All · 全部</option>
            {PORTAL_CHANNELS.map((channel) => (
              <option key={channel} value={channel}>
                {channel}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-status">Status · 状态</label>
          <select id="filter-status" name="status" defaultValue={filters.status ?? ''}>
            <option value="">All · 全部</option>
            {PORTAL_ORDER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-from">From (UTC) · 开始日期</label>
          <input id="filter-from" name="from" type="date" defaultValue={filters.from ?? ''} />
        </div>
        <div className="field">
          <label htmlFor="filter-to">To (UTC) · 结束日期</label>
          <input id="filter-to" name="to" type="date" defaultValue={filters.to ?? ''} />
        </div>
        <div className="field">
          <button className="button" type="submit">
            Filter · 筛选
          </button>
        </div>
      </form>
      <p className="note" role="status" data-testid="orders-total">
        {result.total} orders · 共 {result.total} 笔
      </p>
      {result.rows.length === 0 ? (
        <p>No orders match. · 没有符合条件的订单。</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Merchant order no. · 商户订单号</th>
                <th scope="col">Platform order no. · 平台订单号</th>
                <th scope="col">Channel · 渠道</th>
                <th scope="col">Amount · 金额</th>
                <th scope="col">Status · 状态</th>
                <th scope="col">Created · 创建时间</th>
                <th scope="col">Paid · 支付时间</th>
              </tr>
            </thead>
            <tbody>
              {result.rows.map((order) => (
                <tr key={order.orderNo}>
                  <td>
                    <Link href={`/portal/orders/${encodeURIComponent(order.orderNo)}`}>{order.merchantOrderNo}</Link>
                  </td>
                  <td className="mono">{order.orderNo}</td>
                  <td>{order.channel}</td>
                  <td>
                    {order.amount} {order.currency}
                  </td>
                  <td>
                    <span className={`badge ${order.status}`}>{STATUS_LABELS[order.status] ?? order.status}</span>
                  </td>
                  <td>{formatTime(order.createdAt)}</td>
                  <td>{formatTime(order.paidAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="pager" aria-label="Pages · 分页">
        {result.page > 1 ? <Link href={pageHref(filters, result.page - 1)}>← Previous · 上一页</Link> : null}
        <span>
          Page {result.page} of {result.pageCount} · 第 {result.page}/{result.pageCount} 页
        </span>
        {result.page < result.pageCount ? <Link href={pageHref(filters, result.page + 1)}>Next · 下一页 →</Link> : null}
      </nav>
    </>
  );
}
