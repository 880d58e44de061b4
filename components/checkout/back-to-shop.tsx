import type { CheckoutT } from './checkout-locale';

/**
 * The way back to the shop in a state where the payer is not sent there by itself. Without a redirectUrl the payer
 * is told what to do instead (close the page, keep the order number) rather than left at a dead end. `button`: the
 * state's one action (expired, gone), drawn as the primary button rather than a link in the foot.
 */
export function BackToShop({
  t,
  merchantName,
  redirectUrl,
  button = false,
}: {
  t: CheckoutT;
  merchantName: string;
  redirectUrl: string | null;
  button?: boolean;
}) {
  if (!redirectUrl) {
    return (
      <p className="note" data-testid="no-shop-link">
        {t('noShopLink', { merchant: merchantName })}
      </p>
    );
  }
  return (
    <a className={button ? 'btn' : undefined} href={redirectUrl} data-testid="back-to-shop">
      {t('backToShop', { merchant: merchantName })}
    </a>
  );
}
