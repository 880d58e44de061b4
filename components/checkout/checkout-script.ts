/**
 * Everything a checkout does in the browser, as one small script inlined at the end of the page: the checkout ships
 * no framework (a payer's phone on a slow network gets the amount, the address and the QR code as plain HTML). The
 * page marks what the script works on with data attributes:
 *
 * - `button[data-copy]`: copies its value, says `data-copied-label` for two seconds;
 * - `[data-seconds-left]`: counts down to 0:00;
 * - `[data-poll-status]`: asks that status URL every second while the page is shown (every ten while it is hidden,
 *   and at once when it is shown again) and reloads the page once the order is no longer pending (or
 *   `data-poll-while`), or has seen more payments that did not pay it than `data-poll-unpaid-seen`, so the state
 *   shown is always the service's own (never once a form of the page is sent: the cancel). A second is what the payer
 *   waits at most after the service credits the payment, plus the reload; one question at a time;
 * - `[data-forward-url]`: after `data-forward-after-ms`, replaces this page with that URL (the upstream's cashier,
 *   or the shop once paid). `replace`, so Back never lands on a page that forwards again; once per tab and
 *   `data-forward-key`, so a page reached again (Back, bfcache) stays put with its button.
 *
 * Written as a function so it is type-checked and linted; it must use nothing from outside its own body.
 */
function checkoutBehaviour(): void {
  const formatSeconds = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

  document.querySelectorAll<HTMLButtonElement>('button[data-copy]').forEach((button) => {
    const text = button.dataset.copy ?? '';
    const label = button.querySelector('span') ?? button;
    const idle = label.textContent;
    let reset: ReturnType<typeof setTimeout> | undefined;
    const copied = () => {
      label.textContent = button.dataset.copiedLabel ?? idle;
      clearTimeout(reset);
      reset = setTimeout(() => (label.textContent = idle), 2000);
    };
    button.addEventListener('click', () => {
      const fallback = () => {
        // No Clipboard API (older browsers, insecure origins): select-and-copy.
        const field = document.createElement('textarea');
        field.value = text;
        document.body.appendChild(field);
        field.select();
        document.execCommand('copy');
        field.remove();
        copied();
      };
      if (navigator.clipboard) navigator.clipboard.writeText(text).then(copied, fallback);
      else fallback();
    });
  });

  const countdown = document.querySelector<HTMLElement>('[data-seconds-left]');
  if (countdown) {
    const deadline = Date.now() + Number(countdown.dataset.secondsLeft) * 1000;
    const tick = setInterval(() => {
      const seconds = Math.max(0, Math.round((deadline - Date.now()) / 1000));
      countdown.textContent = formatSeconds(seconds);
      if (seconds === 0) clearInterval(tick);
    }, 1000);
  }

  const poll = document.querySelector<HTMLElement>('[data-poll-status]');
  if (poll) {
    const statusUrl = poll.dataset.pollStatus!;
    const everyMs = Number(poll.dataset.pollEveryMs ?? 1000);
    const whileStatus = poll.dataset.pollWhile ?? 'pending';
    const unpaidShown = Number(poll.dataset.pollUnpaidSeen ?? 0);
    let reloading = false;
    let asking = false;
    let lastAsked = 0;
    // A form sent from the page (the cancel) is leaving it: a reload now would abort that navigation.
    document.addEventListener('submit', () => (reloading = true));
    const ask = () => {
      if (reloading || asking) return;
      asking = true;
      lastAsked = Date.now();
      fetch(statusUrl, { cache: 'no-store' })
        .then((response) => (response.ok ? response.json() : undefined))
        .then((body: { status?: string; unpaidSeen?: number } | undefined) => {
          const changed = (body?.status && body.status !== whileStatus) || (body?.unpaidSeen ?? 0) > unpaidShown;
          if (changed && !reloading) {
            reloading = true;
            window.location.reload();
          }
        })
        // Offline for a moment, or the page is being left: the next poll tries again.
        .catch(() => undefined)
        .finally(() => (asking = false));
    };
    setInterval(() => {
      if (document.hidden && Date.now() - lastAsked < everyMs * 10) return;
      ask();
    }, everyMs);
    document.addEventListener('visibilitychange', () => {
      if (!document.hidden) ask();
    });
  }

  const forward = document.querySelector<HTMLElement>('[data-forward-url]');
  if (forward) {
    const key = `checkout-forwarded:${forward.dataset.forwardKey}`;
    if (!sessionStorage.getItem(key)) {
      setTimeout(() => {
        sessionStorage.setItem(key, '1');
        window.location.replace(forward.dataset.forwardUrl!);
      }, Number(forward.dataset.forwardAfterMs ?? 0));
    }
  }
}

/** The script's source, to inline into the checkout's HTML (the CSP allows inline scripts of this origin's pages). */
export const CHECKOUT_SCRIPT = `(${checkoutBehaviour.toString()})();`;
