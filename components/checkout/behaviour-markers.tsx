/**
 * The markup the checkout's script (checkout-script.ts) works on: each element renders its final HTML on the server
 * and names in data attributes what the script should do with it. Without the script the page still reads right.
 */

export function formatSecondsLeft(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${(seconds % 60).toString().padStart(2, '0')}`;
}

/** A button that copies `text` to the clipboard and says `copiedLabel` for a moment. */
export function CopyValueButton({ text, label, copiedLabel, testId }: { text: string; label: string; copiedLabel: string; testId: string }) {
  return (
    <button type="button" className="copy" aria-label={label} data-testid={testId} data-copy={text} data-copied-label={copiedLabel}>
      <span aria-live="polite" suppressHydrationWarning>
        {label}
      </span>
    </button>
  );
}

/** The time left to pay, counted down in the browser from what the server computed. */
export function TimeLeft({ seconds, label }: { seconds: number; label: string }) {
  return (
    <>
      <p className="label">{label}</p>
      {/* Not a live region: announcing every second would drown a screen reader. */}
      <p className="mono countdown" data-testid="pay-time-left" aria-live="off" data-seconds-left={seconds} suppressHydrationWarning>
        {formatSecondsLeft(seconds)}
      </p>
    </>
  );
}

/**
 * Reloads the page from the server once the order's status (at /pay/<token>/status) is no longer `whileStatus`
 * (pending), or once it has seen more payments that did not pay it than the page shows (`unpaidSeen`).
 */
export function ReloadWhenSettled({ token, whileStatus = 'pending', unpaidSeen = 0 }: { token: string; whileStatus?: 'pending' | 'expired'; unpaidSeen?: number }) {
  return <span hidden data-poll-status={`/pay/${token}/status`} data-poll-while={whileStatus} data-poll-unpaid-seen={unpaidSeen} />;
}

/**
 * Replaces this page with `url` after `afterMs` (the upstream's cashier while pending, the shop once paid), once per
 * tab and `key`: Back from there reaches what came before this page, and a page reached again stays put.
 */
export function ForwardTo({ url, forwardKey, afterMs }: { url: string; forwardKey: string; afterMs: number }) {
  return <span hidden data-forward-url={url} data-forward-key={forwardKey} data-forward-after-ms={afterMs} />;
}
