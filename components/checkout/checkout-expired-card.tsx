import { CheckoutCard, type CheckoutCardFrame } from './checkout-card';

/** The expired state: the payer is told (as an alert) not to pay any more. */
export function CheckoutExpiredCard({ frame, texts }: { frame: CheckoutCardFrame; texts: { expiredTitle: string; expiredText: string } }) {
  return (
    <CheckoutCard frame={frame} state="expired" title={texts.expiredTitle}>
      <p role="alert">{texts.expiredText}</p>
    </CheckoutCard>
  );
}
