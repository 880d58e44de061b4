import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { pickCheckoutLanguage } from '@/lib/i18n/checkout-messages';
import { YHT_SCAN_FIRST, yhtCheckoutMessages } from '@/lib/i18n/yht-checkout-messages';
import { findYhtCheckout } from '@/lib/orders/yht-checkout-view';
import { TimeLeft } from '@/components/time-left';
import { RefreshWhilePending } from './refresh-while-pending';
import { ReturnToMerchant } from './return-to-merchant';

const CASHIER_BUTTON = {
  display: 'block',
  textAlign: 'center',
  padding: '0.75rem',
  marginTop: '1rem',
  borderRadius: '0.5rem',
  background: 'var(--accent)',
  color: '#fff',
  fontWeight: 600,
  textDecoration: 'none',
} as const;

/**
 * The YHT checkout at the order's payUrl: amount, method, the upstream QR code and a button to the aggregator's
 * cashier. Every state shown is read from the database on the server (the page re-renders itself while pending);
 * the payer comes back here from the cashier and is then returned to the merchant.
 */
export async function YhtCheckoutPage({ token, lang }: { token: string; lang?: string }) {
  const checkout = await findYhtCheckout(getDb(), token);
  if (!checkout) notFound();
  const language = pickCheckoutLanguage(lang, (await headers()).get('accept-language'));
  const t = yhtCheckoutMessages(language);
  const method = t.methods[checkout.payMethod] ?? checkout.payMethod;
  const otherLanguage = language === 'zh' ? 'en' : 'zh';
  const languageLink = (
    <a className="language" href={`?lang=${otherLanguage}`} hrefLang={otherLanguage}>
      {t.language}
    </a>
  );
  const orderLine = (
    <>
      <p className="label">{t.order}</p>
      <p className="mono">{checkout.orderNo}</p>
    </>
  );

  let card;
  if (checkout.status === 'paid') {
    card = (
      <section className="card" aria-labelledby="paid-title" data-testid="checkout-paid">
        {languageLink}
        <h1 id="paid-title">{t.paidTitle}</h1>
        <p className="amount">¥{checkout.payMoney}</p>
        <p role="status" data-testid="pay-status">
          {t.paidText}
        </p>
        {checkout.redirectUrl ? (
          <>
            <p>{t.returning}</p>
            <p>
              <a href={checkout.redirectUrl}>{t.returnNow}</a>
            </p>
            <ReturnToMerchant url={checkout.redirectUrl} />
          </>
        ) : null}
        {orderLine}
      </section>
    );
  } else if (checkout.status === 'expired') {
    card = (
      <section className="card" aria-labelledby="expired-title" data-testid="checkout-expired">
        {languageLink}
        <h1 id="expired-title">{t.expiredTitle}</h1>
        <p role="alert">{t.expiredText}</p>
        {orderLine}
      </section>
    );
  } else {
    const qr = checkout.hasQr ? (
      // eslint-disable-next-line @next/next/no-img-element
      <img className="qr" src={`/qr/${token}.png`} alt={`${t.qrAlt}: ¥${checkout.payMoney}, ${method}`} data-testid="pay-qr" />
    ) : null;
    const cashier = checkout.cashierUrl ? (
      <a href={checkout.cashierUrl} data-testid="pay-cashier" style={CASHIER_BUTTON}>
        {t.continueToPay(checkout.payMoney)}
      </a>
    ) : null;
    card = (
      <section className="card" aria-labelledby="pay-title" data-testid="checkout-pending">
        {languageLink}
        <h1 id="pay-title">{t.title(method)}</h1>
        {checkout.productName ? <p>{checkout.productName}</p> : null}
        <p className="label">{t.amountLabel}</p>
        <p className="amount" data-testid="pay-amount">
          ¥{checkout.payMoney}
        </p>
        <p className="label">{t.methodLabel}</p>
        <p data-testid="pay-method">{method}</p>
        <p className="note">{t.hints[checkout.payMethod]}</p>
        {YHT_SCAN_FIRST[checkout.payMethod] ? (
          <>
            {qr}
            {cashier}
          </>
        ) : (
          <>
            {cashier}
            {qr}
          </>
        )}
        <TimeLeft initialSeconds={checkout.secondsLeft} label={t.timeLeft} />
        <p className="status" data-testid="pay-status" role="status">
          {t.waiting}
        </p>
        <RefreshWhilePending token={token} />
        {orderLine}
      </section>
    );
  }
  return (
    <main className="checkout" lang={language === 'zh' ? 'zh-CN' : 'en'}>
      {card}
    </main>
  );
}
