import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { ErrorInWords } from '@/components/i18n/error-in-words';
import { LocalTime } from '@/components/i18n/local-time';
import { Amount } from '@/components/i18n/amount';
import { FailingDestinationsNotice } from '@/components/portal/failing-destinations-notice';
import { roleMay } from '@/lib/accounts/team-roles';
import { CloseOrderButton } from '@/components/portal/close-order-button';
import { ResendButton } from '@/components/portal/resend-button';
import { OrderRefundsSection } from '@/components/portal/order-refunds';
import { listOrderRefunds } from '@/lib/portal/order-refunds';
import { TestOrderBadge } from '@/components/back-office/test-order-badge';
import { badge, card, codeBlock, details, detailsTerm, detailsValue, link, mono, note, pageTitle, sectionTitle } from '@/components/portal/styles';
import { getDb } from '@/lib/db/client';
import { stepUpAsk } from '@/lib/accounts/step-up';
import { destinationOf } from '@/lib/notifications/destination';
import { failingDestinations } from '@/lib/notifications/failing-destinations';
import { payUrlFor } from '@/lib/orders/identifiers';
import { findMerchantOrder, merchantOrderDetail, type OrderNoticeKind, type TimelineEvent } from '@/lib/portal/merchant-order-detail';
import { OrderStandingBadge } from '@/components/back-office/order-standing-badge';
import { PaymentTrailSection } from '@/components/portal/payment-trail';
import { channelNamed } from '@/lib/channels';
import { notificationBodyOf } from '@/lib/portal/notification-body';
import { isDomainError } from '@/lib/errors/domain-error';
import { requireMerchant } from '../../../_session/require-merchant';
import { closeOrderAction, refundLatePaymentAction, refundOrderAction, remedyAbnormalRefundAction, resendNotificationAction } from './actions';

type Translate = Awaited<ReturnType<typeof getTranslations<'portal.order'>>>;

/** Attempts that reached the merchant and were acknowledged are green; every other outcome of an attempt is a failure. */
const SUCCESS = new Set(['acknowledged', 'delivered']);

/** A close or expiry notice's events say which notice they are about; the payment notification's keep their words. */
function ofNotice(notice: OrderNoticeKind, text: string, t: Translate): string {
  return notice === 'payment' ? text : t('events.ofNotice', { notice: t(`noticeNames.${notice}`), event: text });
}

function describe(event: TimelineEvent, t: Translate): { title: string; detail?: string; error?: string; excerpt?: string; badge?: string; failed?: boolean } {
  switch (event.kind) {
    case 'created':
      return { title: t('events.created') };
    case 'paid':
      return {
        title: t('events.paid'),
        // How the payment was learnt, in words ("通过链上转账"); an unknown source keeps its own name.
        detail: [event.via ? t('events.via', { via: t.has(`events.viaNames.${event.via}`) ? t(`events.viaNames.${event.via}` as 'events.via') : event.via }) : undefined, event.tradeNo ? t('events.trade', { tradeNo: event.tradeNo }) : undefined]
          .filter(Boolean)
          .join(' · '),
      };
    case 'closed':
      return { title: t(`events.ended.${event.reason}`) };
    case 'notification-queued':
      return { title: ofNotice(event.notice, event.cycle === 1 ? t('events.queued') : t('events.resent', { cycle: event.cycle }), t) };
    case 'notification-attempt':
      return {
        title: ofNotice(event.notice, t('events.attempt', { attempt: event.attemptNo, cycle: event.cycle }), t),
        badge: event.outcome,
        failed: event.outcome !== 'in_flight' && !SUCCESS.has(event.outcome),
        detail: [event.httpStatus !== null ? `HTTP ${event.httpStatus}` : undefined, event.latencyMs !== null ? t('latency', { ms: event.latencyMs }) : undefined]
          .filter(Boolean)
          .join(' · '),
        // The attempt's error in the reader's words, its raw text (Node's ECONNREFUSED…) beside it as technical detail.
        error: event.error ?? undefined,
        excerpt: event.responseExcerpt ?? undefined,
      };
    case 'notification-delivered':
      return { title: ofNotice(event.notice, t('events.delivered', { cycle: event.cycle }), t), badge: 'delivered' };
    case 'notification-failed':
      return { title: ofNotice(event.notice, t('events.failed', { cycle: event.cycle }), t), badge: 'failed', failed: true };
  }
}

export default async function OrderDetailPage({ params }: { params: Promise<{ orderNo: string }> }) {
  const merchant = await requireMerchant('viewOrders');
  const { orderNo } = await params;
  let detail;
  let row;
  try {
    [detail, row] = await Promise.all([merchantOrderDetail(getDb(), merchant, decodeURIComponent(orderNo)), findMerchantOrder(getDb(), merchant, decodeURIComponent(orderNo))]);
  } catch (error) {
    if (isDomainError(error, 'not_found')) notFound();
    throw error;
  }
  const { order } = detail;
  const [failingAll, body, t, refunds, trail] = await Promise.all([
    failingDestinations(getDb(), new Date(), { merchantId: merchant.merchantId }),
    notificationBodyOf(getDb(), merchant, row),
    getTranslations('portal.order'),
    listOrderRefunds(getDb(), merchant, row.orderNo),
    channelNamed(row.channel)?.paymentTrail?.(getDb(), row),
  ]);
  const failing = failingAll.filter((destination) => destination.destination === destinationOf(order.notifyUrl));
  const outcome = (value: string) => (t.has(`outcomes.${value}`) ? t(`outcomes.${value}` as 'outcomes.failed') : value);
  const payUrl = payUrlFor(row.payToken);
  return (
    <>
      <p className="mt-0 mb-2">
        <Link className={link} href="/portal/orders">
          {t('back')}
        </Link>
      </p>
      <h1 className={pageTitle}>
        {t('title')} <span className={mono}>{order.merchantOrderNo}</span>
      </h1>
      <section className={card} aria-labelledby="order-heading">
        <h2 id="order-heading" className={sectionTitle}>
          {t('details')}
        </h2>
        <dl className={details}>
          <dt className={detailsTerm}>{t('orderNo')}</dt>
          <dd className={`${detailsValue} ${mono}`} data-testid="order-no">
            {order.orderNo}
          </dd>
          <dt className={detailsTerm}>{t('channel')}</dt>
          <dd className={detailsValue}>
            {order.channel}
            {order.payMethod ? ` (${order.payMethod})` : ''}
          </dd>
          <dt className={detailsTerm}>{t('status')}</dt>
          <dd className={detailsValue}>
            <OrderStandingBadge standing={order.standing} status={order.status} testId="order-status" />
            {order.isTest ? <TestOrderBadge orderNo={order.orderNo} /> : null}
          </dd>
          <dt className={detailsTerm}>{t('amount')}</dt>
          <dd className={detailsValue}>
            <Amount value={order.payAmount} currency={order.currency} />
            {order.payAmount !== order.requestedAmount ? ` (${t('requested', { amount: order.requestedAmount })})` : ''}
          </dd>
          <dt className={detailsTerm}>{t('payUrl')}</dt>
          <dd className={`${detailsValue} ${mono}`} data-testid="order-pay-url">
            <a className={link} href={payUrl} target="_blank" rel="noopener">
              {payUrl}
            </a>
          </dd>
          <dt className={detailsTerm}>{t('product')}</dt>
          <dd className={detailsValue}>{order.productName ?? '—'}</dd>
          <dt className={detailsTerm}>{t('notifyUrl')}</dt>
          <dd className={detailsValue}>{order.notifyUrl ?? '—'}</dd>
          <dt className={detailsTerm}>{t('attach')}</dt>
          <dd className={detailsValue}>{order.attach ?? '—'}</dd>
          <dt className={detailsTerm}>{t('created')}</dt>
          <dd className={detailsValue}>
            <LocalTime value={order.createdAt} />
          </dd>
          <dt className={detailsTerm}>{t('expires')}</dt>
          <dd className={detailsValue}>
            <LocalTime value={order.expiresAt} />
          </dd>
        </dl>
        {detail.canClose && roleMay(merchant.teamRole, 'closeOrders') ? (
          <div className="mt-3" data-testid="order-close">
            <p className={`${note} mb-2`}>{t('closeNote')}</p>
            <CloseOrderButton orderNo={order.orderNo} closeOrderAction={closeOrderAction} />
          </div>
        ) : null}
      </section>
      {trail ? <PaymentTrailSection trail={trail} due={order.payAmount} currency={order.currency} /> : null}
      <section className={card} aria-labelledby="timeline-heading">
        <h2 id="timeline-heading" className={sectionTitle}>
          {t('timeline')}
        </h2>
        <ol className="m-0 list-none border-l-2 border-gray-200 p-0" data-testid="order-timeline">
          {detail.timeline.map((event, index) => {
            const view = describe(event, t);
            return (
              <li key={index} data-kind={event.kind} data-failed={view.failed ? 'true' : undefined} className="relative mb-4 pl-4 last:mb-0">
                <span aria-hidden="true" className={`absolute top-1.5 -left-[7px] size-3 rounded-full ${view.failed ? 'bg-red-700' : 'bg-teal-700'}`} data-testid="timeline-dot" />
                <span className="block text-xs text-gray-600">
                  <LocalTime value={event.at} />
                </span>
                <strong className={view.failed ? 'text-red-800' : undefined}>{view.title}</strong> {view.badge ? <span className={badge(view.badge)}>{outcome(view.badge)}</span> : null}
                {view.detail || view.error ? (
                  <div className={`${note} break-all`}>
                    {view.detail}
                    {view.detail && view.error ? ' · ' : null}
                    {view.error ? <ErrorInWords error={view.error} /> : null}
                  </div>
                ) : null}
                {view.excerpt ? (
                  <pre className="m-0 mt-1 rounded bg-gray-50 p-1.5 font-mono text-xs break-all whitespace-pre-wrap" aria-label={t('excerpt')}>
                    {view.excerpt}
                  </pre>
                ) : null}
              </li>
            );
          })}
        </ol>
      </section>
      <section className={card} aria-labelledby="notify-heading">
        <h2 id="notify-heading" className={sectionTitle}>
          {t('notification')}
        </h2>
        <FailingDestinationsNotice destinations={failing} />
        {detail.notifications.length === 0 ? <p className={`${note} mb-3`}>{t('noNotification')}</p> : null}
        {detail.notifications.map((cycle) => (
          <p key={`${cycle.notice}-${cycle.cycle}`} className={`${note} mb-3`} data-notice={cycle.notice}>
            {cycle.notice === 'payment' ? null : `${t(`noticeNames.${cycle.notice}`)} · `}
            {t('cycle', { cycle: cycle.cycle })} <span className={badge(cycle.status)}>{outcome(cycle.status)}</span>
            {t('comma')}
            {t('attempts', { count: cycle.attempts })}
            {cycle.status === 'pending' ? (
              <>
                {t('comma')}
                {t('nextAt')}{' '}
                <LocalTime value={cycle.nextAttemptAt} />
              </>
            ) : null}
            {cycle.lastError ? (
              <>
                {' · '}
                <ErrorInWords error={cycle.lastError} />
              </>
            ) : null}
          </p>
        ))}
        {body ? (
          <div className="mb-3">
            <h3 className="mt-0 mb-1 text-sm font-semibold">{t('body')}</h3>
            <p className={note}>{t('bodyNote')}</p>
            <pre className={`${codeBlock} break-normal [overflow-wrap:break-word] whitespace-pre-wrap`} data-testid="notification-body" tabIndex={0}>
              {body.split('&').join('\n&')}
            </pre>
          </div>
        ) : null}
        {detail.canResend && roleMay(merchant.teamRole, 'resendNotifications') ? <ResendButton orderNo={order.orderNo} resendNotificationAction={resendNotificationAction} /> : null}
      </section>
      <OrderRefundsSection orderNo={row.orderNo} channel={row.channel} paid={row.status === 'paid'} currency={order.currency} data={refunds} refundOrderAction={refundOrderAction} remedyAction={remedyAbnormalRefundAction} latePaymentAction={refundLatePaymentAction} mayRefund={roleMay(merchant.teamRole, 'refund')} stepUp={await stepUpAsk(getDb(), merchant, new Date())} />
    </>
  );
}
