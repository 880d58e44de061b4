import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { pickCheckoutLanguage } from '@/lib/i18n/checkout-messages';
import { YHT_SCAN_FIRST, yhtCheckoutMessages } from '@/lib/i18n/yht-checkout-messages';
import { findYhtCheckout } from '@/lib/orders/yht-checkout-view';
import { CheckoutCard, CheckoutMain, type CheckoutCardFrame } from './checkout-card';
import { CheckoutExpiredCard } from './checkout-expired-card';
import { CheckoutPaidCard } from './checkout-paid-card';
import { AmountToPay, WaitingForPayment } from './checkout-pending-parts';

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
  const frame: CheckoutCardFrame = { language, texts: t, orderNo: checkout.orderNo };

  let card;
  if (checkout.status === 'paid') {
    card = <CheckoutPaidCard frame={frame} texts={t} amount={checkout.payMoney} redirectUrl={checkout.redirectUrl} />;
  } else if (checkout.status === 'expired') {
    card = <CheckoutExpiredCard frame={frame} texts={t} />;
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
      <CheckoutCard frame={frame} state="pending" title={t.title(method)}>
        <AmountToPay productName={checkout.productName} label={t.amountLabel} amount={checkout.payMoney} />
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
        <WaitingForPayment token={token} secondsLeft={checkout.secondsLeft} texts={t} />
      </CheckoutCard>
    );
  }
  return <CheckoutMain language={language}>{card}</CheckoutMain>;
}
