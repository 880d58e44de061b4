import Link from 'next/link';
import { notFound } from 'next/navigation';
import { FailingDestinationsNotice } from '@/components/portal/failing-destinations-notice';
import { formatTime, STATUS_LABELS } from '@/components/portal/format';
import { ResendButton } from '@/components/portal/resend-button';
import { badge, card, details, detailsTerm, detailsValue, link, mono, note, pageTitle, sectionTitle } from '@/components/portal/styles';
import { getDb } from '@/lib/db/client';
import { destinationOf } from '@/lib/notifications/destination';
import { failingDestinations } from '@/lib/notifications/failing-destinations';
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
  const failing = (await failingDestinations(getDb(), new Date(), { merchantId: merchant.merchantId })).filter(
    (destination) => destination.destination === destinationOf(order.notifyUrl),
  );
  return (
    <>
      <p className="mt-0 mb-2">
        <Link className={link} href="/portal/orders">← Orders · 订单</Link>
      </p>
      <h1 className={pageTitle}>
        Order · 订单 <span className={mono}>{order.merchantOrderNo}</span>
      </h1>
      <section className={card} aria-labelledby="order-heading">
        <h2 id="order-heading" className={sectionTitle}>Details · 详情</h2>
        <dl className={details}>
          <dt className={detailsTerm}>Platform order no. · 平台订单号</dt>
          <dd className={`${detailsValue} ${mono}`} data-testid="order-no">
            {order.orderNo}
          </dd>
          <dt className={detailsTerm}>Channel · 渠道</dt>
          <dd className={detailsValue}>
            {order.channel}
            {order.payMethod ? ` (${order.payMethod})` : ''}
          </dd>
          <dt className={detailsTerm}>Status · 状态</dt>
          <dd className={detailsValue}>
            <span className={badge(order.status)} data-testid="order-status">
              {STATUS_LABELS[order.status] ?? order.status}
            </span>
          </dd>
          <dt className={detailsTerm}>Amount · 金额</dt>
          <dd className={detailsValue}>
            {order.payAmount} {order.currency}
            {order.payAmount !== order.requestedAmount ? ` (requested · 请求 ${order.requestedAmount})` : ''}
          </dd>
          <dt className={detailsTerm}>Product · 商品</dt>
          <dd className={detailsValue}>{order.productName ?? '—'}</dd>
          <dt className={detailsTerm}>Notify URL · 通知地址</dt>
          <dd className={detailsValue}>{order.notifyUrl ?? '—'}</dd>
          <dt className={detailsTerm}>Attach · 附加数据</dt>
          <dd className={detailsValue}>{order.attach ?? '—'}</dd>
          <dt className={detailsTerm}>Created · 创建时间</dt>
          <dd className={detailsValue}>{formatTime(order.createdAt)}</dd>
          <dt className={detailsTerm}>Payment window ends · 支付截止</dt>
          <dd className={detailsValue}>{formatTime(order.expiresAt)}</dd>
        </dl>
      </section>
      <section className={card} aria-labelledby="timeline-heading">
        <h2 id="timeline-heading" className={sectionTitle}>Timeline · 时间线</h2>
        <ol className="m-0 list-none border-l-2 border-gray-200 p-0" data-testid="order-timeline">
          {detail.timeline.map((event, index) => {
            const view = describe(event);
            return (
              <li key={index} data-kind={event.kind} className="relative mb-4 pl-4 last:mb-0">
                <span aria-hidden="true" className="absolute top-1.5 -left-[7px] size-3 rounded-full bg-teal-700" />
                <time dateTime={event.at.toISOString()} className="block text-xs text-gray-600">{formatTime(event.at)}</time>
                <strong>{view.title}</strong> {view.badge ? <span className={badge(view.badge)}>{view.badge}</span> : null}
                {view.detail ? <div className={`${note} break-all`}>{view.detail}</div> : null}
                {view.excerpt ? (
                  <pre className="m-0 mt-1 rounded bg-gray-50 p-1.5 font-mono text-xs break-all whitespace-pre-wrap" aria-label="Response body excerpt · 响应内容">
                    {view.excerpt}
                  </pre>
                ) : null}
              </li>
            );
          })}
        </ol>
      </section>
      <section className={card} aria-labelledby="notify-heading">
        <h2 id="notify-heading" className={sectionTitle}>Payment notification · 支付通知</h2>
        <FailingDestinationsNotice destinations={failing} />
        {detail.notifications.length === 0 ? <p className={`${note} mb-3`}>No notification yet (sent when the order is paid). · 尚无通知（支付后发送）。</p> : null}
        {detail.notifications.map((cycle) => (
          <p key={cycle.cycle} className={`${note} mb-3`}>
            Cycle {cycle.cycle}: <span className={badge(cycle.status)}>{cycle.status}</span>, {cycle.attempts} attempt(s)
            {cycle.status === 'pending' ? `, next at ${formatTime(cycle.nextAttemptAt)}` : ''}
            {cycle.lastError ? ` · ${cycle.lastError}` : ''}
          </p>
        ))}
        {detail.canResend ? <ResendButton orderNo={order.orderNo} /> : null}
      </section>
    </>
  );
}
