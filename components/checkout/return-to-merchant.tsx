'use client';

import { useEffect } from 'react';

/**
 * Sends the payer back to the merchant a moment after the paid view shows. `replace`, not `assign`: the paid page
 * leaves the history, so Back from the shop cannot land on a page that sends the payer forward again. Once per tab
 * and order: should the page come back anyway (bfcache, a reopened tab), it stays put with its link.
 */
export function ReturnToMerchant({ url, token, afterMs = 3_000 }: { url: string; token: string; afterMs?: number }) {
  useEffect(() => {
    const key = `checkout-returned:${token}`;
    if (sessionStorage.getItem(key)) return;
    const timer = setTimeout(() => {
      sessionStorage.setItem(key, '1');
      window.location.replace(url);
    }, afterMs);
    return () => clearTimeout(timer);
  }, [url, token, afterMs]);
  return null;
}
