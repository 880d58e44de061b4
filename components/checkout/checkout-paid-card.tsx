import { CheckoutCard, type CheckoutCardFrame } from './checkout-card';
import { ReturnToMerchant } from './return-to-merchant';

/** The paid state: the amount, the confirmation (announced) and, when the merchant gave one, the way back to it. */
export function CheckoutPaidCard({
  frame,
  texts,
  amount,
  redirectUrl,
  returnLinkTestId,
}: {
  frame: CheckoutCardFrame;
  texts: { paidTitle: string; paidText: string; returning: string; returnNow: string };
  amount: string;
  redirectUrl: string | null | undefined;
  returnLinkTestId?: string;
}) {
  return (
    <CheckoutCard frame={frame} state="paid" title={texts.paidTitle}>
      <p className="amount">¥{amount}</p>
      <p role="status" data-testid="pay-status">
        {texts.paidText}
      </p>
      {redirectUrl ? (
        <>
          <p>{texts.returning}</p>
          <p>
            <a href={redirectUrl} data-testid={returnLinkTestId}>
              {texts.returnNow}
            </a>
          </p>
          <ReturnToMerchant url={redirectUrl} />
        </>
      ) : null}
    </CheckoutCard>
  );
}
