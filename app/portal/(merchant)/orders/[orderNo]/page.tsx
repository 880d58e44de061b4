import Link from 'next/link';
import { notFound } from 'next/navigation';
import { formatTime, STATUS_LABELS } from '@/components/portal/format';
import { ResendButton } from '@/components/portal/resend-button';
import { getDb } from '@/lib/db/client';
import { merchantOrderDetail, type TimelineEvent } from '@/lib/portal/merchant-order-detail';
import { PortalNotFound } from '@/lib/portal/portal-errors';
import { requireMerchant } from '../../../_session/require-merchant';

function describe(event: TimelineEvent): { title: string; detail?: string; excerpt?: string; badge?: string } {
  switch (event.kind) {
    case 'created':
      return { title: 'Order created · 订单创建' };
    case 'paid':
      return { title: 'Paid · 已支付', detail: [event.via ? `via ${event.via}` : undefined, event.tradeNo ? `trade ${event.tradeNo}` : undefined].filter(Boolean).join(' · ') };
    case 'closed':
      return { title: 'Closed · 已关闭' };
    case 'notification-queued':
      return { title: event.cycle === 1 ? 'Notification queued · 通知已排队' : `Notification re-sent, cycle ${event.cycle} · 重发通知（第 ${event.cycle} 轮）` };
    case 'notification-attempt':
      return {
        title: `Notification attempt ${event.attemptNo} (cycle ${event.cycle}) · 第 ${event.attemptNo} 次推送`,
        badge: event.outcome,
        detail: [
          event.httpStatus !== null ? `HTTP ${event.httpStatus}` : undefined,
          event.latencyMs !== null ? `${event.latencyMs} ms` : undefined,
          event.error ?? undefined,
        ]
          .filter(Boolean)
          .join(' · '),
        excerpt: event.responseExcerpt ?? undefined,
      };
    case 'notification-delivered':
      return { title: `Notification delivered (cycle ${event.cycle}) · 通知送达`, badge: 'delivered' };
    case 'notification-failed':
      return { title: `Notification failed after all retries (cycle ${event.cycle}) · 通知重试用尽`, badge: 'failed' };
  }
}

export default async function OrderDetailPage({ params }: { params: Promise<{ orderNo: string }> }) {
  const merchant = await requireMerchant();
  const { orderNo } = await params;
  let detail;
  try {
    detail = await merchantOrderDetail(getDb(), merchant, decodeURIComponent(orderNo));
  } catch (error) {
    if (error instanceof PortalNotFound) notFound();
    throw error;
  }
  const { order } = detail;
  return (
    <>
      <p>
        <Link href="/portal/orders">← Orders · 订单</Link>
      </p>
      <h1>
        Order · 订单 <span className="mono">{order.merchantOrderNo}</span>
      </h1>
      <section className="card" aria-labelledby="order-heading">
        <h2 id="order-heading">Details · 详情</h2>
        <dl className="details">
          <dt>Platform order no. · 平台订单号</dt>
          <dd className="mono" data-testid="order-no">
            {order.orderNo}
          </dd>
          <dt>Channel · 渠道</dt>
          <dd>
            {order.channel}
            {order.payMethod ? ` (${order.payMethod})` : ''}
          </dd>
          <dt>Status · 状态</dt>
          <dd>
            <span className={`badge ${order.status}`} data-testid="order-status">
              {STATUS_LABELS[order.status] ?? order.status}
            </span>
          </dd>
          <dt>Amount · 金额</dt>
          <dd>
            {order.payAmount} {order.currency}
            {order.payAmount !== order.requestedAmount ? ` (requested · 请求 ${order.requestedAmount})` : ''}
          </dd>
          <dt>Product · 商品</dt>
          <dd>{order.productName ?? '—'}</dd>
          <dt>Notify URL · 通知地址</dt>
          <dd>{order.notifyUrl ?? '—'}</dd>
          <dt>Attach · 附加数据</dt>
          <dd>{order.attach ?? '—'}</dd>
          <dt>Created · 创建时间</dt>
          <dd>{formatTime(order.createdAt)}</dd>
          <dt>Payment window ends · 支付截止</dt>
          <dd>{formatTime(order.expiresAt)}</dd>
        </dl>
      </section>
      <section className="card" aria-labelledby="timeline-heading">
        <h2 id="timeline-heading">Timeline · 时间线</h2>
        <ol className="timeline" data-testid="order-timeline">
          {detail.timeline.map((event, index) => {
            const view = describe(event);
            return (
              <li key={index} data-kind={event.kind}>
                <time dateTime={event.at.toISOString()}>{formatTime(event.at)}</time>
                <strong>{view.title}</strong> {view.badge ? <span className={`badge ${view.badge}`}>{view.badge}</span> : null}
                {view.detail ? <div className="note">{view.detail}</div> : null}
                {view.excerpt ? <pre aria-label="Response body excerpt · 响应内容">{view.excerpt}</pre> : null}
              </li>
            );
          })}
        </ol>
      </section>
      <section className="card" aria-labelledby="notify-heading">
        <h2 id="notify-heading">Payment notification · 支付通知</h2>
        {detail.notifications.length === 0 ? <p className="note">No notification yet (sent when the order is paid). · 尚无通知（支付后发送）。</p> : null}
        {detail.notifications.map((cycle) => (
          <p key={cycle.cycle} className="note">
            Cycle {cycle.cycle}: <span className={`badge ${cycle.status}`}>{cycle.status}</span>, {cycle.attempts} attempt(s)
            {cycle.status === 'pending' ? `, next at ${formatTime(cycle.nextAttemptAt)}` : ''}
            {cycle.lastError ? ` · ${cycle.lastError}` : ''}
          </p>
        ))}
        {detail.canResend ? <ResendButton orderNo={order.orderNo} /> : null}
      </section>
    </>
  );
}
