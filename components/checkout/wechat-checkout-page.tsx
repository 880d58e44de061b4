import { headers } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { pickCheckoutLanguage } from '@/lib/i18n/checkout-messages';
import { wechatCheckoutMessages } from '@/lib/i18n/wechat-checkout-messages';
import { findWechatCheckout } from '@/lib/orders/wechat-checkout-view';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { CheckoutCard, CheckoutMain, type CheckoutCardFrame } from './checkout-card';
import { CheckoutExpiredCard } from './checkout-expired-card';
import { CheckoutPaidCard } from './checkout-paid-card';
import { AmountToPay, WaitingForPayment } from './checkout-pending-parts';

const PRIMARY_LINK = 'mt-4 block rounded-lg bg-[var(--accent)] p-3 text-center font-semibold text-white no-underline focus:outline-2 focus:outline-offset-2';
const SECONDARY_LINK = 'mt-3 block rounded-lg border border-current p-3 text-center no-underline focus:outline-2 focus:outline-offset-2';

/** The sandbox payer page a sandbox code_url stands for (what scanning it with the simulated WeChat opens). */
function sandboxScanUrl(codeUrl: string): string | undefined {
  if (!sandboxEnabled()) return undefined;
  const match = /^weixin:\/\/wxpay\/bizpayurl\?pr=([A-Za-z0-9_-]{8,64})$/.exec(codeUrl);
  return match ? `/sandbox/wechat/pay/${match[1]}` : undefined;
}

/**
 * The WECHAT checkout at the order's payUrl. native: the amount, the code_url as a QR code, a countdown and the
 * live status; h5: the payer is sent on to WeChat's h5_url while the order is pending, and on coming back
 * (redirect_url, marked `wxreturn=1`) waits here for the confirmed state. Every state shown is read from the
 * database on the server.
 */
export async function WechatCheckoutPage({ token, lang, returnedFromWechat }: { token: string; lang?: string; returnedFromWechat: boolean }) {
  const checkout = await findWechatCheckout(getDb(), token);
  if (!checkout) notFound();
  if (checkout.h5Url && !returnedFromWechat) redirect(checkout.h5Url);
  const language = pickCheckoutLanguage(lang, (await headers()).get('accept-language'));
  const t = wechatCheckoutMessages(language);
  const frame: CheckoutCardFrame = { language, texts: t, orderNo: checkout.orderNo, keep: returnedFromWechat ? { wxreturn: '1' } : {}, breakOrderNo: true };

  let card;
  if (checkout.status === 'paid') {
    card = <CheckoutPaidCard frame={frame} texts={t} amount={checkout.amount} redirectUrl={checkout.redirectUrl} returnLinkTestId="return-to-merchant" />;
  } else if (checkout.status === 'expired') {
    card = <CheckoutExpiredCard frame={frame} texts={t} />;
  } else {
    const scanUrl = checkout.codeUrl ? sandboxScanUrl(checkout.codeUrl) : undefined;
    card = (
      <CheckoutCard frame={frame} state="pending" title={t.title}>
        <AmountToPay productName={checkout.productName} label={t.amountLabel} amount={checkout.amount} />
        {checkout.codeUrl ? (
          <>
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img className="qr mx-auto block h-auto w-full max-w-[320px]" src={`/qr/${token}.png`} alt={t.qrAlt(checkout.amount)} data-testid="pay-qr" width={320} height={320} />
            <p className="note">{t.scanHint}</p>
            {scanUrl ? (
              <a href={scanUrl} className={SECONDARY_LINK} data-testid="sandbox-scan">
                {t.sandboxPay}
              </a>
            ) : null}
          </>
        ) : null}
        {checkout.h5Url ? (
          <>
            <p className="note">{t.h5Returned}</p>
            <a href={checkout.h5Url} className={PRIMARY_LINK} data-testid="pay-h5">
              {t.continueToPay(checkout.amount)}
            </a>
          </>
        ) : null}
        <WaitingForPayment token={token} secondsLeft={checkout.secondsLeft} texts={t} />
      </CheckoutCard>
    );
  }
  return <CheckoutMain language={language}>{card}</CheckoutMain>;
}
