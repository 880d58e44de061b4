'use client';

import { useEffect } from 'react';

/**
 * A page brought back by Back from the browser's page cache shows its old DOM, filled form included: reload it so the
 * server decides again what the form may hold (the sandbox wallet must not offer the same payment twice).
 */
export function ReloadWhenRestored() {
  useEffect(() => {
    const reload = (event: PageTransitionEvent) => {
      if (event.persisted) window.location.reload();
    };
    window.addEventListener('pageshow', reload);
    return () => window.removeEventListener('pageshow', reload);
  }, []);
  return null;
}
