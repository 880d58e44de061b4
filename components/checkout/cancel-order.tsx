import type { CheckoutT } from './checkout-locale';

/**
 * The payer's cancel on a pending checkout: it really closes the order (the service's one close, the upstream first),
 * after a confirmation drawn with <details> (the checkout runs no framework), then returns to the shop when the
 * merchant gave a redirectUrl, else shows the order's closed state here.
 */
export function CancelOrder({ t, token, merchantName, redirectUrl }: { t: CheckoutT; token: string; merchantName: string; redirectUrl: string | null }) {
  return (
    <details className="cancel-order" data-testid="cancel-order">
      <summary>{redirectUrl ? t('cancelAndReturn', { merchant: merchantName }) : t('cancelOrder')}</summary>
      <p className="note">{t('cancelConfirmText')}</p>
      <form method="post" action={`/pay/${encodeURIComponent(token)}/cancel`}>
        <button type="submit" className="btn-secondary" data-testid="cancel-order-confirm">
          {t('cancelConfirm')}
        </button>
      </form>
    </details>
  );
}
