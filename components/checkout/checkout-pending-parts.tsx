import type { ReactNode } from 'react';
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
export function WaitingForPayment({ token, secondsLeft, texts, unpaidSeen }: { token: string; secondsLeft: number; texts: { timeLeft: string; waiting?: string }; unpaidSeen?: number }) {
  return (
    <>
      <TimeLeft seconds={secondsLeft} label={texts.timeLeft} />
      {texts.waiting === undefined ? null : (
        <p className="status note" data-testid="pay-status" role="status">
          {texts.waiting}
        </p>
      )}
      <ReloadWhenSettled token={token} unpaidSeen={unpaidSeen} />
    </>
  );
}

/**
 * A pending card's layout: what the payer must see first (amount, network or method, time left, live status), the QR
 * code, then the ways to pay. One column on a phone, in that order, so the first screen holds the summary; on a wide
 * screen the QR code (16 rem) stands on the left beside the summary and the actions. `actionsFirstOnPhone`: a method
 * the phone that shows the page can pay itself (its cashier opens the wallet app there) puts the actions before the
 * QR code on a phone-sized screen, the QR code (for another device) after them.
 */
export function PayLayout({ summary, qr, actions, actionsFirstOnPhone = false }: { summary: ReactNode; qr?: ReactNode; actions?: ReactNode; actionsFirstOnPhone?: boolean }) {
  const layout = ['pay-layout', qr ? 'with-qr' : '', qr && actionsFirstOnPhone ? 'actions-first-on-phone' : ''].filter(Boolean).join(' ');
  return (
    <div className={layout}>
      <div className="pay-summary">{summary}</div>
      {qr ? <div className="pay-qr">{qr}</div> : null}
      {actions ? <div className="pay-actions">{actions}</div> : null}
    </div>
  );
}
