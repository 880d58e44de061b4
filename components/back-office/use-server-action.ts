'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';

/** What a portal or console server action answers (components/portal/action-result.ts, components/operator/action-result.ts). */
type ServerActionResult<T> = { ok: true; data: T } | { ok: false; message: string; fieldErrors?: Record<string, string> };

/** Runs a server action once at a time, keeps its error (and per-field errors), and refreshes the page after a success. */
export function useServerAction() {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  async function run<T>(action: () => Promise<ServerActionResult<T>>): Promise<ServerActionResult<T>> {
    setPending(true);
    setError(undefined);
    setFieldErrors({});
    try {
      const result = await action();
      if (result.ok) router.refresh();
      else {
        setError(result.message);
        setFieldErrors(result.fieldErrors ?? {});
      }
      return result;
    } finally {
      setPending(false);
    }
  }

  return { pending, error, fieldErrors, run, setError };
}
