'use client';

import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

/**
 * False in the server render and until React has hydrated the page, then true. Forms keep their submit button
 * disabled until then: a click before hydration would submit natively, as a GET with the password in the URL.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
