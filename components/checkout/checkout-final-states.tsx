import { BackToShop } from './back-to-shop';
import { CheckoutShell, type CheckoutFrame } from './checkout-shell';
import { ForwardTo } from './behaviour-markers';

/**
 * The paid state, the same for every channel: the success mark, the amount, the confirmation (announced) and either
 * the return to the merchant (automatic, with the link) or, without a redirectUrl, what to do now.
 */
export function CheckoutPaid({ frame, token, amount, orderNo, redirectUrl }: { frame: CheckoutFrame; token: string; amount: string; orderNo: string; redirectUrl: string | null }) {
  const { t, merchant } = frame;
  return (
    <CheckoutShell frame={frame} state="paid" title={t('paidTitle')} orderNo={orderNo}>
      <p className="amount" data-testid="paid-amount">
        {amount}
      </p>
      <p role="status" data-testid="pay-status">
        {t('paidText')}
      </p>
      {redirectUrl ? (
        <>
          <p className="note">{t('returning', { merchant: merchant.name })}</p>
          <a className="btn" href={redirectUrl} data-testid="return-to-merchant">
            {t('backToShop', { merchant: merchant.name })}
          </a>
          <ForwardTo url={redirectUrl} forwardKey={`${token}:shop`} afterMs={3_000} />
        </>
      ) : (
        <p className="note" data-testid="no-shop-link">
          {t('noShopLink', { merchant: merchant.name })}
        </p>
      )}
    </CheckoutShell>
  );
}

/** The expired state: the payer is told (as an alert) not to pay any more, and given the way back to the shop. */
export function CheckoutExpired({ frame, orderNo, redirectUrl, text }: { frame: CheckoutFrame; orderNo: string; redirectUrl: string | null; text?: string }) {
  const { t, merchant } = frame;
  return (
    <CheckoutShell frame={frame} state="expired" title={t('expiredTitle')} orderNo={orderNo}>
      <p role="alert">{text ?? t('expiredText')}</p>
      <BackToShop t={t} merchantName={merchant.name} redirectUrl={redirectUrl} button />
    </CheckoutShell>
  );
}
