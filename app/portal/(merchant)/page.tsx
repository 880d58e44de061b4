import Link from 'next/link';
import { FailingDestinationsNotice } from '@/components/portal/failing-destinations-notice';
import { OrdersChart } from '@/components/portal/orders-chart';
import { card, details, detailsTerm, detailsValue, formError, link, mono, note, pageTitle, sectionTitle, table, tableWrap, td, th } from '@/components/portal/styles';
import { getDb } from '@/lib/db/client';
import { failingDestinations } from '@/lib/notifications/failing-destinations';
import { merchantDashboard } from '@/lib/portal/merchant-dashboard';
import { requireMerchant } from '../_session/require-merchant';

const stat = 'rounded-xl border border-gray-200 bg-white p-4';
const statValue = 'mt-1 mb-0 text-2xl font-bold';

export default async function PortalHome() {
  const merchant = await requireMerchant();
  const now = new Date();
  const [dashboard, failing] = await Promise.all([
    merchantDashboard(getDb(), merchant, now),
    failingDestinations(getDb(), now, { merchantId: merchant.merchantId }),
  ]);
  return (
    <>
      <h1 className={pageTitle}>Overview · 概览</h1>
      <FailingDestinationsNotice destinations={failing} />
      {merchant.orderPermission ? null : (
        <p className={formError} role="note">
          Order permission is not enabled yet: the platform operator enables it after review. Until then, order requests are refused with code 1004. /
          下单权限尚未开通，开通前下单请求将返回 1004。
        </p>
      )}
      <section aria-labelledby="figures-heading" className="mb-4">
        <h2 id="figures-heading" className={sectionTitle}>
          Orders · 订单 (UTC)
        </h2>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3 sm:gap-4" data-testid="dashboard-stats">
          <div className={stat}>
            <div className={note}>Today · 今日订单</div>
            <p className={statValue}>{dashboard.today.orders}</p>
            <div className={note}>{dashboard.today.paid} paid · 已支付</div>
          </div>
          <div className={stat}>
            <div className={note}>Last 7 days · 近 7 日订单</div>
            <p className={statValue}>{dashboard.week.orders}</p>
            <div className={note}>
              {dashboard.week.paid} paid · {dashboard.week.closed} closed
            </div>
          </div>
          <div className={stat}>
            <div className={note}>Success rate, 7 days · 7 日成功率</div>
            <p className={statValue}>{dashboard.successRate === undefined ? '—' : `${dashboard.successRate}%`}</p>
            <div className={note}>paid ÷ (paid + closed) · 已支付 ÷ 已结束</div>
          </div>
        </div>
      </section>
      <section className={card} aria-labelledby="chart-heading">
        <h2 id="chart-heading" className={sectionTitle}>
          Last 7 days · 近 7 日
        </h2>
        <OrdersChart days={dashboard.days} />
      </section>
      <section aria-labelledby="totals-heading" className="mb-4">
        <h2 id="totals-heading" className={sectionTitle}>
          Paid totals · 收款合计
        </h2>
        {dashboard.paidTotals.length === 0 ? (
          <p className={note}>No paid orders in the last 7 days. · 近 7 日暂无已支付订单。</p>
        ) : (
          <div className={tableWrap}>
            <table className={table}>
              <thead>
                <tr>
                  <th scope="col" className={th}>
                    Channel · 渠道
                  </th>
                  <th scope="col" className={th}>
                    Currency · 币种
                  </th>
                  <th scope="col" className={th}>
                    Today · 今日
                  </th>
                  <th scope="col" className={th}>
                    Last 7 days · 近 7 日
                  </th>
                  <th scope="col" className={th}>
                    Paid orders · 笔数
                  </th>
                </tr>
              </thead>
              <tbody>
                {dashboard.paidTotals.map((row) => (
                  <tr key={`${row.channel}-${row.currency}`}>
                    <td className={td}>{row.channel}</td>
                    <td className={td}>{row.currency}</td>
                    <td className={td}>{row.today}</td>
                    <td className={td}>{row.week}</td>
                    <td className={td}>{row.weekCount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className={card} aria-labelledby="merchant-heading">
        <h2 id="merchant-heading" className={sectionTitle}>
          Merchant · 商户
        </h2>
        <dl className={details}>
          <dt className={detailsTerm}>Name · 名称</dt>
          <dd className={detailsValue}>{merchant.merchantName}</dd>
          <dt className={detailsTerm}>AppID</dt>
          <dd className={`${detailsValue} ${mono}`}>{merchant.appId}</dd>
        </dl>
        <p className="mt-4 mb-0 flex flex-wrap gap-x-2 gap-y-1">
          <Link className={link} href="/portal/orders">
            Orders · 订单
          </Link>
          <span aria-hidden="true">·</span>
          <Link className={link} href="/portal/keys">
            Interface keys · 接口密钥
          </Link>
          <span aria-hidden="true">·</span>
          <Link className={link} href="/portal/signature">
            Signature debugger · 签名调试
          </Link>
        </p>
      </section>
    </>
  );
}
