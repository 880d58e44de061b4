import type { WechatCheckout } from '@/lib/channels/wechat/checkout-view';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { CancelOrder } from './cancel-order';
import { CheckoutExpired, CheckoutPaid } from './checkout-final-states';
import { AmountToPay, PayLayout, WaitingForPayment } from './checkout-pending-parts';
import { CheckoutShell, type AsJson, type CheckoutFrame, type CheckoutPageProps, type CheckoutSearchParams } from './checkout-shell';

/** The sandbox payer page a sandbox code_url stands for (what scanning it with the simulated WeChat opens). */
function sandboxScanUrl(codeUrl: string): string | undefined {
  if (!sandboxEnabled()) return undefined;
  const match = /^weixin:\/\/wxpay\/bizpayurl\?pr=([A-Za-z0-9_-]{8,64})$/.exec(codeUrl);
  return match ? `/sandbox/wechat/pay/${match[1]}` : undefined;
}

/** h5 while pending, before the payer went to WeChat: straight on to WeChat's h5_url (no page in the history). */
export function wechatH5Redirect(checkout: AsJson<WechatCheckout>, query: CheckoutSearchParams): string | undefined {
  return checkout.h5Url && checkout.status === 'pending' && query.wxreturn !== '1' ? checkout.h5Url : undefined;
}

/**
 * The WECHAT checkout at the order's payUrl. native: the amount, the code_url as a QR code, a countdown and the
 * live status; h5 (paid on this same phone, so no QR): while pending the payer is sent straight on to WeChat's
 * h5_url (a redirect leaves no page in the history), and on coming back (`wxreturn=1`, the return address this
 * service gives WeChat) this waits for the confirmed state with a button to go again.
 */
export function WechatCheckoutPage({ frame, token, view: checkout, searchParams }: CheckoutPageProps<WechatCheckout>) {
  const returnedFromWechat = searchParams.wxreturn === '1';
  const { t, merchant } = frame;
  const withState: CheckoutFrame = { ...frame, keep: returnedFromWechat ? { wxreturn: '1' } : {} };
  if (checkout.status === 'paid') {
    return <CheckoutPaid frame={withState} token={token} amount={`¥${checkout.amount}`} orderNo={checkout.orderNo} redirectUrl={checkout.redirectUrl} />;
  }
  if (checkout.status === 'expired') return <CheckoutExpired frame={withState} orderNo={checkout.orderNo} redirectUrl={checkout.redirectUrl} />;
  const scanUrl = checkout.codeUrl ? sandboxScanUrl(checkout.codeUrl) : undefined;
  return (
    <CheckoutShell
      frame={withState}
      state="pending"
      wide={Boolean(checkout.codeUrl)}
      title={t('wechat.title')}
      orderNo={checkout.orderNo}
      foot={<CancelOrder t={t} token={token} merchantName={merchant.name} redirectUrl={checkout.redirectUrl} />}
    >
      <PayLayout
        summary={
          <>
            <AmountToPay productName={checkout.productName} label={t('amountLabel')} amount={checkout.amount} />
            <WaitingForPayment token={token} secondsLeft={checkout.secondsLeft} texts={{ timeLeft: t('timeLeft'), waiting: t('waiting') }} />
          </>
        }
        qr={
          checkout.codeUrl ? (
            <>
              {/* WeChat cannot scan the screen it runs on: a phone-sized screen says how to pay from it. */}
              <div className="phone-only phone-scan" data-testid="phone-scan-hint">
                <p className="status">{t('wechat.phoneTitle')}</p>
                <p className="note">{t('wechat.phoneHint')}</p>
              </div>
              {/* eslint-disable-next-line @next/next/no-img-element */}
              <img className="qr" src={`/qr/${token}.png`} alt={t('wechat.qrAlt', { amount: checkout.amount })} data-testid="pay-qr" width={256} height={256} />
              <a className="btn-secondary phone-only" href={`/qr/${token}.png`} download={`wechat-pay-${checkout.orderNo}.png`} data-testid="save-qr">
                {t('wechat.saveQr')}
              </a>
            </>
          ) : undefined
        }
        actions={
          <>
            {checkout.codeUrl ? <p className="note">{t('wechat.scanHint')}</p> : null}
            {scanUrl ? (
              <a href={scanUrl} className="btn-secondary" data-testid="sandbox-scan">
                {t('wechat.sandboxPay')}
              </a>
            ) : null}
            {checkout.h5Url ? (
              <>
                <p className="note">{t('wechat.h5Returned')}</p>
                <a href={checkout.h5Url} className="btn" data-testid="pay-h5">
                  {t('wechat.continueToPay', { amount: checkout.amount })}
                </a>
              </>
            ) : null}
          </>
        }
      />
    </CheckoutShell>
  );
}
