'use client';

import { useTranslations } from 'next-intl';
import { useState, type MouseEvent } from 'react';
import { button, fieldError } from '@/components/portal/styles';
import { ceremonyFailureOf, passkeyAnswer } from './passkey-ceremony';

/**
 * Answers a sensitive action's check with one of the account's passkeys: the ceremony's answer goes into the form's
 * confirmation field (`password`, where a code would be typed) for the one submit it starts, then the field is empty
 * again, as the person left it.
 */
export function PasskeyStepUpButton({ fieldName = 'password' }: { fieldName?: string }) {
  const t = useTranslations('portal.passkeys');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();

  async function onClick(event: MouseEvent<HTMLButtonElement>) {
    const form = event.currentTarget.form;
    const field = form?.elements.namedItem(fieldName);
    if (!form || !(field instanceof HTMLInputElement)) return;
    setBusy(true);
    setProblem(undefined);
    try {
      const answer = await passkeyAnswer('step_up');
      field.value = answer;
      form.requestSubmit();
      field.value = '';
    } catch (error) {
      // The failure's name is its message's key (portal.passkeys).
      setProblem(t(ceremonyFailureOf(error)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mb-3">
      <button type="button" className={button('secondary')} disabled={busy} onClick={(event) => void onClick(event)} data-testid="step-up-passkey">
        {t('confirmWithPasskey')}
      </button>
      {problem ? (
        <p className={fieldError} role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
