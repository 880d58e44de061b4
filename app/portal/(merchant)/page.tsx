import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { merchantDashboard } from '@/lib/portal/merchant-dashboard';
import { requireMerchant } from '../_session/require-merchant';

export default async function PortalHome() {
  const merchant = await requireMerchant();
  const dashboard = await merchantDashboard(getDb(), merchant, new Date());
  return (
    <>
      <h1>Overview · 概览</h1>
      {merchant.orderPermission ? null : (
        <p className="form-error" role="note">
          Order permission is not enabled yet: the platform operator enables it after review. Until then, order requests are refused with code 1004. /
          下单权限尚未开通，开通前下单请求将返回 1004。
        </p>
      )}
      <section aria-labelledby="figures-heading">
        <h2 id="figures-heading">Orders · 订单 (UTC)</h2>
        <div className="stats" data-testid="dashboard-stats">
          <div className="stat">
            <div className="note">Today · 今日订单</div>
            <p className="value">{dashboard.today.orders}</p>
            <div className="note">{dashboard.today.paid} paid · 已支付</div>
          </div>
          <div className="stat">
            <div className="note">Last 7 days · 近 7 日订单</div>
            <p className="value">{dashboard.week.orders}</p>
            <div className="note">
              {dashboard.week.paid} paid · {dashboard.week.closed} closed
            </div>
          </div>
          <div className="stat">
            <div className="note">Success rate, 7 days · 7 日成功率</div>
            <p className="value">{dashboard.successRate === undefined ? '—' : `${dashboard.successRate}%`}</p>
            <div className="note">paid ÷ (paid + closed) · 已支付 ÷ 已结束</div>
          </div>
        </div>
      </section>
      <section aria-labelledby="totals-heading">
        <h2 id="totals-heading">Paid totals · 收款合计</h2>
        {dashboard.paidTotals.length === 0 ? (
          <p className="note">No paid orders in the last 7 days. · 近 7 日暂无已支付订单。</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Channel · 渠道</th>
                  <th scope="col">Currency · 币种</th>
                  <th scope="col">Today · 今日</th>
                  <th scope="col">Last 7 days · 近 7 日</th>
                  <th scope="col">Paid orders · 笔数</th>
                </tr>
              </thead>
              <tbody>
                {dashboard.paidTotals.map((row) => (
                  <tr key={`${row.channel}-${row.currency}`}>
                    <td>{row.channel}</td>
                    <td>{row.currency}</td>
                    <td>{row.today}</td>
                    <td>{row.week}</td>
                    <td>{row.weekCount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="card" aria-labelledby="merchant-heading">
        <h2 id="merchant-heading">Merchant · 商户</h2>
        <dl className="details">
          <dt>Name · 名称</dt>
          <dd>{merchant.merchantName}</dd>
          <dt>AppID</dt>
          <dd className="mono">{merchant.appId}</dd>
        </dl>
        <p>
          <Link href="/portal/orders">Orders · 订单</Link> · <Link href="/portal/keys">Interface keys · 接口密钥</Link> ·{' '}
          <Link href="/portal/signature">Signature debugger · 签名调试</Link>
        </p>
      </section>
    </>
  );
}
