import { getTranslations } from 'next-intl/server';
import { Amount } from '@/components/i18n/amount';
import { amountWriter } from '@/components/i18n/amount-writer';
import { LocalTime } from '@/components/i18n/local-time';
import type { StepUpAsk } from '@/lib/accounts/step-up';
import type { listOrderRefunds } from '@/lib/portal/order-refunds';
import { RefundForm } from './refund-form';
import { AbnormalRefundRemedy } from './abnormal-refund-remedy';
import { LatePaymentRefund } from './late-payment-refund';
import { RefundOutcome } from './refund-outcome';
import { badge, card, mono, note, sectionTitle, table, tableWrap, td, th } from './styles';

type OrderRefunds = Awaited<ReturnType<typeof listOrderRefunds>>;

/** The order's refunds with their states and notice attempts, and the form that refunds (or records a wallet refund). */
export async function OrderRefundsSection({
  orderNo,
  channel,
  paid,
  currency,
  data,
  refundOrderAction,
  remedyAction,
  latePaymentAction,
  mayRefund,
  stepUp,
}: {
  orderNo: string;
  channel: string;
  paid: boolean;
  currency: string;
  data: OrderRefunds;
  refundOrderAction: Parameters<typeof RefundForm>[0]['refundOrderAction'];
  remedyAction: Parameters<typeof AbnormalRefundRemedy>[0]['remedyAction'];
  latePaymentAction: Parameters<typeof LatePaymentRefund>[0]['refundAction'];
  /** The member's role refunds (owner, finance): otherwise the refunds are shown without the forms that make them. */
  mayRefund: boolean;
  /** What the refund forms ask before they run (lib/accounts/step-up.ts). */
  stepUp: StepUpAsk;
}) {
  const [t, writeAmount] = await Promise.all([getTranslations('portal.refunds'), amountWriter()]);
  const readable = (amount: string) => writeAmount(amount, currency);
  const state = (value: string) => (t.has(`states.${value}`) ? t(`states.${value}` as 'states.processing') : value);
  const wallet = !data.refundable && channel === 'USDT';
  return (
    <section className={card} aria-labelledby="refunds-heading">
      <h2 id="refunds-heading" className={sectionTitle}>
        {t('title')}
      </h2>
      <RefundOutcome>
        {data.latePayment ? (
          <div className="mb-4" data-testid="late-payment" role="status">
            <p className="mb-2 text-sm">
              {t('latePayment.explain', { amount: readable(data.latePayment.amount), tradeNo: data.latePayment.tradeNo ?? '—' })}
            </p>
            {data.latePayment.refundable && mayRefund ? <LatePaymentRefund orderNo={orderNo} refundAction={latePaymentAction} stepUp={stepUp} /> : data.latePayment.refundable ? null : <p className={note}>{t('latePayment.refunded')}</p>}
          </div>
        ) : null}
        <p className={`${note} mb-3`} data-testid="refunded-amount">
          {t('refunded', { amount: readable(data.refundedAmount) })}
        </p>
        {data.refunds.length === 0 ? (
          <p className={`${note} mb-3`}>{t('none')}</p>
        ) : (
          <div className={`${tableWrap} mb-4`}>
            <table className={table} data-testid="refunds-table">
              <thead>
                <tr>
                  <th className={th}>{t('refundNo')}</th>
                  <th className={th}>{t('amountColumn')}</th>
                  <th className={th}>{t('state')}</th>
                  <th className={th}>{t('reasonColumn')}</th>
                  <th className={th}>{t('notice')}</th>
                  <th className={th}>{t('created')}</th>
                </tr>
              </thead>
              <tbody>
                {data.refunds.map((refund) => (
                  <tr key={refund.refundNo} data-testid="refund-row" data-state={refund.state}>
                    <td className={`${td} ${mono}`}>
                      {refund.merchantRefundNo}
                      {refund.upstreamRefundId ? <div className={note}>{refund.upstreamRefundId}</div> : null}
                    </td>
                    <td className={td}>
                      <Amount value={refund.amount} currency={currency} />
                    </td>
                    <td className={td}>
                      <span className={badge(refund.state === 'succeeded' ? 'paid' : refund.state === 'processing' || refund.state === 'abnormal' ? 'pending' : 'failed')}>{state(refund.state)}</span>
                      {refund.failureReason ? <div className={`${note} whitespace-normal`}>{refund.failureReason}</div> : null}
                      {refund.remedy && mayRefund ? <AbnormalRefundRemedy orderNo={orderNo} refundNo={refund.refundNo} remedyAction={remedyAction} stepUp={stepUp} /> : null}
                    </td>
                    <td className={`${td} whitespace-normal`}>
                      {refund.reason ?? '—'}
                      <div className={note}>{refund.createdBy}</div>
                    </td>
                    <td className={td}>
                      {refund.notice ? (
                        <>
                          {state(refund.notice.status)}
                          {refund.notice.attempts.map((attempt) => (
                            <div key={attempt.attemptNo} className={note}>
                              {t('attempt', { attempt: attempt.attemptNo })}: {attempt.outcome}
                              {attempt.httpStatus !== null ? ` (HTTP ${attempt.httpStatus})` : ''}
                            </div>
                          ))}
                        </>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td className={td}>
                      <LocalTime value={refund.createdAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {!paid ? (
          <p className={note}>{t('onlyPaid')}</p>
        ) : data.remainder !== 'some' ? (
          <p className={`${note} font-semibold text-gray-900`} data-testid="refund-remainder" data-remainder={data.remainder}>
            {t(data.remainder === 'refunded' ? 'fullyRefunded' : 'wholeInProgress')}
          </p>
        ) : !mayRefund ? (
          <p className={note} data-testid="refunds-role">
            {t('roleCannotRefund')}
          </p>
        ) : data.refundable || wallet ? (
          <>
            {wallet ? <p className={`${note} mb-3`}>{t('walletHint')}</p> : null}
            <RefundForm orderNo={orderNo} wallet={wallet} leftAmount={data.leftAmount} currency={currency} refundOrderAction={refundOrderAction} stepUp={stepUp} />
          </>
        ) : (
          <p className={note}>{t('notOffered', { channel })}</p>
        )}
      </RefundOutcome>
    </section>
  );
}

