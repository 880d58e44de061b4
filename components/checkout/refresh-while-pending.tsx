'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

/**
 * Asks the service for the order's status every few seconds and re-renders the page from the server once it is no
 * longer pending, so the state shown is always the service's own (never the browser's).
 */
export function RefreshWhilePending({ token, everyMs = 3_000 }: { token: string; everyMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    let stopped = false;
    const timer = setInterval(async () => {
      try {
        const response = await fetch(`/pay/${token}/status`, { cache: 'no-store' });
        if (!response.ok || stopped) return;
        const { status } = (await response.json()) as { status: string };
        if (status !== 'pending' && !stopped) {
          stopped = true;
          clearInterval(timer);
          router.refresh();
        }
      } catch {
        // offline for a moment, or the page is being left: the next poll tries again
      }
    }, everyMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [router, token, everyMs]);
  return null;
}
