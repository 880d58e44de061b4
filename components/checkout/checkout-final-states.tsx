import type { ReactNode } from 'react';
import { BackToShop } from './back-to-shop';
import { CheckoutShell, type CheckoutFrame } from './checkout-shell';
import { ForwardTo, ReloadWhenSettled } from './behaviour-markers';

/**
 * The paid state, the same for every channel: the success mark, the amount, the confirmation (announced) and either
 * the return to the merchant (automatic, with the link) or, without a redirectUrl, what to do now.
 */
export function CheckoutPaid({
  frame,
  token,
  amount,
  orderNo,
  redirectUrl,
  transaction,
}: {
  frame: CheckoutFrame;
  token: string;
  amount: string;
  orderNo: string;
  redirectUrl: string | null;
  /** The paying transaction (a chain's), with the explorer page that shows it. */
  transaction?: { id: string; explorerUrl: string | null } | null;
}) {
  const { t, merchant } = frame;
  return (
    <CheckoutShell frame={frame} state="paid" title={t('paidTitle')} orderNo={orderNo}>
      <p className="amount" data-testid="paid-amount">
        {amount}
      </p>
      <p role="status" data-testid="pay-status">
        {t('paidText')}
      </p>
      {transaction ? (
        <>
          <p className="label">{t('transactionLabel')}</p>
          <p className="mono" data-testid="paid-transaction">
            {transaction.explorerUrl ? (
              <a href={transaction.explorerUrl} rel="noopener noreferrer" target="_blank" data-testid="explorer-link">
                {transaction.id}
              </a>
            ) : (
              transaction.id
            )}
          </p>
        </>
      ) : null}
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

/**
 * The order can no longer be paid: why (its time ran out, the merchant closed it, the payer cancelled it) and for what
 * amount, the payer told (as an alert) not to pay any more (`warning`: the channel's own words, e.g. USDT's address),
 * and given the way back to the shop.
 */
export function CheckoutExpired({ frame, orderNo, redirectUrl, warning, children }: { frame: CheckoutFrame; orderNo: string; redirectUrl: string | null; warning?: string; children?: ReactNode }) {
  const { t, merchant, ending } = frame;
  const reason = ending?.reason ?? 'expired';
  return (
    <CheckoutShell frame={frame} state="expired" title={t(`ended.${reason}.title`)} pill={t(`ended.${reason}.pill`)} orderNo={orderNo}>
      {ending ? (
        <p data-testid="ended-amount">
          {t('ended.amount', { amount: ending.amount })}
        </p>
      ) : null}
      <p data-testid="ended-reason" data-end-reason={reason}>
        {t(`ended.${reason}.text`, { merchant: merchant.name })}
      </p>
      {warning ? (
        <p role="alert" data-testid="ended-warning">
          {warning}
        </p>
      ) : null}
      {children}
      <p className="note" data-testid="paid-anyway">
        {t('paidAnyway', { merchant: merchant.name })}
      </p>
      <BackToShop t={t} merchantName={merchant.name} redirectUrl={redirectUrl} button />
    </CheckoutShell>
  );
}

/**
 * The time to pay is over but the chain's watcher is behind, so a transfer made in time may not be credited yet: the
 * payer is told the confirmation is delayed and not to pay again, and the page keeps asking until the order is paid.
 */
export function CheckoutDelayed({ frame, token, title, orderNo, text }: { frame: CheckoutFrame; token: string; title: string; orderNo: string; text: string }) {
  const { t, merchant } = frame;
  return (
    <CheckoutShell frame={frame} state="expired" pill={t('status.delayed')} title={title} orderNo={orderNo}>
      <p role="alert" data-testid="confirmation-delayed">
        {text}
      </p>
      <p className="note">{t('paidAnyway', { merchant: merchant.name })}</p>
      <ReloadWhenSettled token={token} whileStatus="expired" />
    </CheckoutShell>
  );
}
