import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { pickCheckoutLanguage } from '@/lib/i18n/checkout-messages';
import { alipayCheckoutMessages } from '@/lib/i18n/alipay-checkout-messages';
import { findAlipayCheckout } from '@/lib/orders/alipay-checkout-view';
import { CheckoutCard, CheckoutMain, type CheckoutCardFrame } from './checkout-card';
import { CheckoutExpiredCard } from './checkout-expired-card';
import { CheckoutPaidCard } from './checkout-paid-card';
import { AmountToPay, WaitingForPayment } from './checkout-pending-parts';
import { ContinueToUpstream } from './continue-to-upstream';

const PAY_BUTTON =
  'mt-4 block rounded-lg bg-sky-600 px-4 py-3 text-center text-lg font-semibold text-white no-underline hover:bg-sky-700 focus:outline-none focus-visible:ring-4 focus-visible:ring-sky-300';

/**
 * The ALIPAY checkout at the order's payUrl. While the order can be paid it sends the payer's browser on to Alipay's
 * cashier (page pay for web, wap pay for mobile) with a button as the fallback; when the payer comes back from Alipay
 * (`returned`) it waits for the payment to be confirmed instead of sending them there again. Paid and expired
 * views come from the state stored here, never from the browser.
 */
export async function AlipayCheckoutPage({ token, lang, returned }: { token: string; lang?: string; returned: boolean }) {
  const checkout = await findAlipayCheckout(getDb(), token);
  if (!checkout) notFound();
  const language = pickCheckoutLanguage(lang, (await headers()).get('accept-language'));
  const t = alipayCheckoutMessages(language);
  const frame: CheckoutCardFrame = { language, texts: t, orderNo: checkout.orderNo };

  let card;
  if (checkout.status === 'paid') {
    card = <CheckoutPaidCard frame={frame} texts={t} amount={checkout.amount} redirectUrl={checkout.redirectUrl} />;
  } else if (checkout.status === 'expired') {
    card = <CheckoutExpiredCard frame={frame} texts={t} />;
  } else {
    card = (
      <CheckoutCard frame={frame} state="pending" title={t.title}>
        <AmountToPay productName={checkout.productName} label={t.amountLabel} amount={checkout.amount} />
        <p className="label">{t.methodLabel}</p>
        <p data-testid="pay-method">{t.methods[checkout.payMethod]}</p>
        {checkout.gatewayUrl ? (
          <>
            <p className="status" role="status" data-testid="pay-status">
              {returned ? t.returned : t.redirecting}
            </p>
            {returned ? null : <p className="note">{t.notMoving}</p>}
            <a className={PAY_BUTTON} href={checkout.gatewayUrl} data-testid="pay-alipay">
              {returned ? t.payAgain : t.payButton(checkout.amount)}
            </a>
            {returned ? null : <ContinueToUpstream url={checkout.gatewayUrl} />}
          </>
        ) : (
          <p role="alert" data-testid="pay-unavailable">
            {t.unavailable}
          </p>
        )}
        <WaitingForPayment token={token} secondsLeft={checkout.secondsLeft} texts={{ timeLeft: t.timeLeft }} />
      </CheckoutCard>
    );
  }
  return <CheckoutMain language={language}>{card}</CheckoutMain>;
}
