import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { pickCheckoutLanguage } from '@/lib/i18n/checkout-messages';
import { alipayCheckoutMessages } from '@/lib/i18n/alipay-checkout-messages';
import { findAlipayCheckout } from '@/lib/orders/alipay-checkout-view';
import { TimeLeft } from '@/components/time-left';
import { ContinueToUpstream } from './continue-to-upstream';
import { RefreshWhilePending } from './refresh-while-pending';
import { ReturnToMerchant } from './return-to-merchant';

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
        <p className="amount">¥{checkout.amount}</p>
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
    card = (
      <section className="card" aria-labelledby="pay-title" data-testid="checkout-pending">
        {languageLink}
        <h1 id="pay-title">{t.title}</h1>
        {checkout.productName ? <p>{checkout.productName}</p> : null}
        <p className="label">{t.amountLabel}</p>
        <p className="amount" data-testid="pay-amount">
          ¥{checkout.amount}
        </p>
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
        <TimeLeft initialSeconds={checkout.secondsLeft} label={t.timeLeft} />
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
