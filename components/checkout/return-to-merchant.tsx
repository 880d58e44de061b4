'use client';

import { useEffect } from 'react';

/** Sends the payer back to the merchant a moment after the paid view is shown. */
export function ReturnToMerchant({ url, afterMs = 3_000 }: { url: string; afterMs?: number }) {
  useEffect(() => {
    const timer = setTimeout(() => window.location.assign(url), afterMs);
    return () => clearTimeout(timer);
  }, [url, afterMs]);
  return null;
}
