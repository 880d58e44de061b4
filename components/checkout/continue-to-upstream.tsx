'use client';

import { useEffect } from 'react';

/** Sends the payer's browser on to the upstream's cashier a moment after the page shows (the link stays as a fallback). */
export function ContinueToUpstream({ url, afterMs = 800 }: { url: string; afterMs?: number }) {
  useEffect(() => {
    const timer = setTimeout(() => window.location.assign(url), afterMs);
    return () => clearTimeout(timer);
  }, [url, afterMs]);
  return null;
}
