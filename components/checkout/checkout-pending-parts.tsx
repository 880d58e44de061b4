import { ReloadWhenSettled, TimeLeft } from './behaviour-markers';

/** The top of a pending card: what is bought (when the merchant said) and the amount to pay. */
export function AmountToPay({ productName, label, amount }: { productName: string | null | undefined; label: string; amount: string }) {
  return (
    <>
      {productName ? <p className="note">{productName}</p> : null}
      <p className="label">{label}</p>
      <p className="amount" data-testid="pay-amount">
        ¥{amount}
      </p>
    </>
  );
}

/**
 * The bottom of a pending card: the time left, the announced waiting status (when the page shows it here) and the
 * refresh that picks up the confirmed state.
 */
export function WaitingForPayment({ token, secondsLeft, texts }: { token: string; secondsLeft: number; texts: { timeLeft: string; waiting?: string } }) {
  return (
    <>
      <TimeLeft seconds={secondsLeft} label={texts.timeLeft} />
      {texts.waiting === undefined ? null : (
        <p className="status note" data-testid="pay-status" role="status">
          {texts.waiting}
        </p>
      )}
      <ReloadWhenSettled token={token} />
    </>
  );
}
