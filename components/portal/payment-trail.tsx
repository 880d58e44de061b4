import { getLocale, getTranslations } from 'next-intl/server';
import { LocalTime } from '@/components/i18n/local-time';
import type { OrderPaymentTrail } from '@/lib/channels/channel';
import { card, details, detailsTerm, detailsValue, link, mono, note, sectionTitle, warning } from './styles';

function Transaction({ id, explorerUrl, testId }: { id: string; explorerUrl: string | null; testId: string }) {
  return explorerUrl ? (
    <a className={`${link} ${mono}`} href={explorerUrl} target="_blank" rel="noopener noreferrer" data-testid={testId}>
      {id}
    </a>
  ) : (
    <span className={mono} data-testid={testId}>
      {id}
    </span>
  );
}

/**
 * How a chain order was paid, as a refund or a question from the payer needs it: the network and the receiving
 * address the payer was shown, who paid in which transaction (with its explorer page), and every transfer that reached
 * the address for this order without paying it (short, over, late) with what was missing.
 */
export async function PaymentTrailSection({ trail, due, currency }: { trail: OrderPaymentTrail; due: string; currency: string }) {
  const [t, locale] = await Promise.all([getTranslations('portal.order.trail'), getLocale()]);
  return (
    <section className={card} aria-labelledby="trail-heading" data-testid="payment-trail">
      <h2 id="trail-heading" className={sectionTitle}>
        {t('title')}
      </h2>
      <dl className={details}>
        <dt className={detailsTerm}>{t('network')}</dt>
        <dd className={detailsValue} data-testid="trail-network">
          {locale === 'zh-CN' ? trail.network.zh : trail.network.en}
        </dd>
        <dt className={detailsTerm}>{t('receivingAddress')}</dt>
        <dd className={`${detailsValue} ${mono}`} data-testid="trail-address">
          {trail.receivingAddress}
        </dd>
        <dt className={detailsTerm}>{t('payer')}</dt>
        <dd className={`${detailsValue} ${mono}`} data-testid="trail-payer">
          {trail.payer ?? '—'}
        </dd>
        <dt className={detailsTerm}>{t('transaction')}</dt>
        <dd className={detailsValue}>{trail.transaction ? <Transaction {...trail.transaction} testId="trail-transaction" /> : '—'}</dd>
      </dl>
      {trail.unpaidTransfers.length > 0 ? (
        <>
          <h3 className="mt-4 mb-2 text-base font-semibold">{t('unpaidTitle')}</h3>
          <ul className="m-0 list-none p-0">
            {trail.unpaidTransfers.map((transfer) => (
              <li key={transfer.transactionId} className="mb-3" data-testid="unpaid-transfer" data-problem={transfer.problem}>
                <p className={`${warning} m-0 font-semibold`}>{t(`problems.${transfer.problem}`, { amount: transfer.amount, due, currency, shortBy: transfer.shortBy ?? '' })}</p>
                <p className={note}>
                  <LocalTime value={transfer.blockTime} /> · {t('from')} <span className={mono}>{transfer.from}</span>
                </p>
                <p className={note}>
                  {t('transaction')}: <Transaction id={transfer.transactionId} explorerUrl={transfer.explorerUrl} testId="unpaid-transaction" />
                </p>
              </li>
            ))}
          </ul>
          <p className={note}>{t('unpaidHelp')}</p>
        </>
      ) : null}
    </section>
  );
}
