'use client';

import { useEffect } from 'react';

/**
 * Sends the payer's browser on to the upstream's cashier a moment after the page shows (the button stays as the
 * fallback). `replace`: the cashier takes this page's place in the history, so Back from it goes to the shop, not
 * here; and once per tab and order, so a checkout reached again (Back after the button, bfcache) offers the
 * button instead of bouncing to the cashier again.
 */
export function ContinueToUpstream({ url, token, afterMs = 800 }: { url: string; token: string; afterMs?: number }) {
  useEffect(() => {
    const key = `checkout-forwarded:${token}`;
    if (sessionStorage.getItem(key)) return;
    const timer = setTimeout(() => {
      sessionStorage.setItem(key, '1');
      window.location.replace(url);
    }, afterMs);
    return () => clearTimeout(timer);
  }, [url, token, afterMs]);
  return null;
}
