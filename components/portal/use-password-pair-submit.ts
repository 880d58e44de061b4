'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { ActionResult } from './action-result';

/**
 * A form that chooses a password (typed twice) and then goes elsewhere: the sign-up and the invitation's. The pair is
 * compared in the browser (the server checks the password's own rules); a refusal keeps the person on the form with
 * its field errors.
 */
export function usePasswordPairSubmit(texts: { mismatch: string; checkFields: string }, next: string) {
  const router = useRouter();
  const [error, setError] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  async function submit(form: FormData, send: (password: string) => Promise<ActionResult<unknown>>) {
    const password = String(form.get('password') ?? '');
    if (password !== String(form.get('confirmPassword') ?? '')) {
      setFieldErrors({ confirmPassword: texts.mismatch });
      setError(texts.checkFields);
      return;
    }
    setPending(true);
    setError(undefined);
    setFieldErrors({});
    const result = await send(password);
    if (!result.ok) {
      setPending(false);
      setError(result.message);
      setFieldErrors(result.fieldErrors ?? {});
      return;
    }
    router.push(next);
  }

  return { error, fieldErrors, pending, submit };
}
