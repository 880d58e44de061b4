import type { YhtCheckout } from '@/lib/channels/yht/checkout-view';
import { CancelOrder } from './cancel-order';
import { CheckoutExpired, CheckoutPaid } from './checkout-final-states';
import { AmountToPay, PayLayout, WaitingForPayment } from './checkout-pending-parts';
import { CheckoutShell, type CheckoutPageProps } from './checkout-shell';

/**
 * YHT methods paid by scanning with a wallet app on another device: only these show the QR code. The others are
 * paid on the device the payer holds (WeChat h5 opens WeChat on this phone; online banking and card pay happen at the
 * cashier), where a QR code could only be scanned by the phone that shows it.
 */
export const YHT_SCAN_METHODS: ReadonlySet<string> = new Set(['wxPub', 'wxLite', 'aliPay', 'unionPay']);

/**
 * Scan methods whose cashier, opened on the phone that shows the checkout, pays there (Alipay's cashier opens the
 * Alipay app): on a phone the cashier button comes first, the QR code (for another device) after it.
 */
const YHT_CASHIER_FIRST_ON_PHONE: ReadonlySet<string> = new Set(['aliPay']);

/**
 * The YHT checkout at the order's payUrl: amount, method, the upstream QR code (scan methods only) and a button to
 * the aggregator's cashier. Every state shown is read from the database on the server (the page re-renders itself
 * while pending); the payer comes back here from the cashier and is then returned to the merchant.
 */
export function YhtCheckoutPage({ frame, token, view: checkout }: CheckoutPageProps<YhtCheckout>) {
  const { t, merchant } = frame;
  if (checkout.status === 'paid') {
    return <CheckoutPaid frame={frame} token={token} amount={`¥${checkout.payMoney}`} orderNo={checkout.orderNo} redirectUrl={checkout.redirectUrl} />;
  }
  if (checkout.status === 'expired') return <CheckoutExpired frame={frame} orderNo={checkout.orderNo} redirectUrl={checkout.redirectUrl} />;
  const known = ['wxH5', 'wxPub', 'wxLite', 'aliPay', 'unionPay', 'bankCard', 'bankFast'].includes(checkout.payMethod);
  const method = known ? t(`yht.methods.${checkout.payMethod}`) : checkout.payMethod;
  const scan = YHT_SCAN_METHODS.has(checkout.payMethod) && checkout.hasQr;
  const cashierFirstOnPhone = scan && Boolean(checkout.cashierUrl) && YHT_CASHIER_FIRST_ON_PHONE.has(checkout.payMethod);
  return (
    <CheckoutShell
      frame={frame}
      state="pending"
      wide={scan}
      title={t('yht.title', { method })}
      orderNo={checkout.orderNo}
      foot={<CancelOrder t={t} token={token} merchantName={merchant.name} redirectUrl={checkout.redirectUrl} />}
    >
      <PayLayout
        actionsFirstOnPhone={cashierFirstOnPhone}
        summary={
          <>
            <AmountToPay productName={checkout.productName} label={t('amountLabel')} amount={checkout.payMoney} />
            <p className="label">{t('yht.methodLabel')}</p>
            <p data-testid="pay-method">{method}</p>
            <WaitingForPayment token={token} secondsLeft={checkout.secondsLeft} texts={{ timeLeft: t('timeLeft'), waiting: t('waiting') }} />
          </>
        }
        qr={
          scan ? (
            // eslint-disable-next-line @next/next/no-img-element
            <img className="qr" src={`/qr/${token}.png`} alt={t('yht.qrAlt', { amount: checkout.payMoney, method })} data-testid="pay-qr" width={256} height={256} />
          ) : undefined
        }
        actions={
          <>
            {known ? <p className={cashierFirstOnPhone ? 'note wide-only' : 'note'}>{t(`yht.hints.${checkout.payMethod}`)}</p> : null}
            {cashierFirstOnPhone ? (
              <p className="note phone-only" data-testid="phone-pay-hint">
                {t('yht.phoneHints.aliPay')}
              </p>
            ) : null}
            {checkout.cashierUrl ? (
              <a href={checkout.cashierUrl} data-testid="pay-cashier" className={cashierFirstOnPhone ? 'btn-secondary primary-on-phone' : scan ? 'btn-secondary' : 'btn'}>
                {t('yht.continueToPay', { amount: checkout.payMoney })}
              </a>
            ) : null}
          </>
        }
      />
    </CheckoutShell>
  );
}
