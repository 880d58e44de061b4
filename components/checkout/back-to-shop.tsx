import type { CheckoutT } from './checkout-locale';

/**
 * The way back to the shop in a state where the payer is not sent there by itself. Without a redirectUrl the payer
 * is told what to do instead (close the page, keep the order number) rather than left at a dead end.
 */
export function BackToShop({ t, merchantName, redirectUrl, pending = false }: { t: CheckoutT; merchantName: string; redirectUrl: string | null; pending?: boolean }) {
  if (!redirectUrl) {
    return (
      <p className="note" data-testid="no-shop-link">
        {t('noShopLink', { merchant: merchantName })}
      </p>
    );
  }
  return (
    <a href={redirectUrl} data-testid="back-to-shop">
      {t(pending ? 'backToShopPending' : 'backToShop', { merchant: merchantName })}
    </a>
  );
}
