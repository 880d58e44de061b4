import type { AlipayCheckout } from '@/lib/channels/alipay/checkout-view';
import { CancelOrder } from './cancel-order';
import { CheckoutExpired, CheckoutPaid } from './checkout-final-states';
import { ForwardTo } from './behaviour-markers';
import { AmountToPay, WaitingForPayment } from './checkout-pending-parts';
import { CheckoutShell, type CheckoutPageProps } from './checkout-shell';

/**
 * The ALIPAY checkout at the order's payUrl. While the order can be paid it sends the payer's browser on to Alipay's
 * cashier (page pay for web, wap pay for mobile) with a button as the fallback; when the payer comes back from Alipay
 * (Alipay sends them to return_url with its `trade_no` appended) it waits for the payment to be confirmed instead
 * of sending them there again. Paid and expired views come from the state stored here, never from the browser.
 */
export function AlipayCheckoutPage({ frame, token, view: checkout, searchParams }: CheckoutPageProps<AlipayCheckout>) {
  const returned = searchParams.trade_no !== undefined;
  const { t, merchant } = frame;
  if (checkout.status === 'paid') {
    return <CheckoutPaid frame={frame} token={token} amount={`¥${checkout.amount}`} orderNo={checkout.orderNo} redirectUrl={checkout.redirectUrl} />;
  }
  if (checkout.status === 'expired') return <CheckoutExpired frame={frame} orderNo={checkout.orderNo} redirectUrl={checkout.redirectUrl} />;
  return (
    <CheckoutShell
      frame={{ ...frame, keep: returned ? { trade_no: 'returned' } : undefined }}
      state="pending"
      title={t('alipay.title')}
      orderNo={checkout.orderNo}
      foot={<CancelOrder t={t} token={token} merchantName={merchant.name} redirectUrl={checkout.redirectUrl} />}
    >
      <AmountToPay productName={checkout.productName} label={t('amountLabel')} amount={checkout.amount} />
      <p className="label">{t('alipay.methodLabel')}</p>
      <p data-testid="pay-method">{t(`alipay.methods.${checkout.payMethod}`)}</p>
      {checkout.gatewayUrl ? (
        <>
          <p className="status note" role="status" data-testid="pay-status">
            {returned ? t('alipay.returned') : t('alipay.redirecting')}
          </p>
          {returned ? null : <p className="note">{t('alipay.notMoving')}</p>}
          <a className="btn" href={checkout.gatewayUrl} data-testid="pay-alipay">
            {returned ? t('alipay.payAgain') : t('alipay.payButton', { amount: checkout.amount })}
          </a>
          {returned ? null : <ForwardTo url={checkout.gatewayUrl} forwardKey={`${token}:cashier`} afterMs={800} />}
        </>
      ) : (
        <p role="alert" data-testid="pay-unavailable">
          {t('alipay.unavailable')}
        </p>
      )}
      <WaitingForPayment token={token} secondsLeft={checkout.secondsLeft} texts={{ timeLeft: t('timeLeft') }} />
    </CheckoutShell>
  );
}
