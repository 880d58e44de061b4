'use client';

import { useTranslations } from 'next-intl';
import type { StepUpAsk } from '@/lib/accounts/step-up';
import { Field } from './field';
import { note } from './styles';

/**
 * The confirmation a sensitive form asks before it runs (lib/accounts/step-up.ts), posted as `password`: the password
 * for an account without an authenticator app; the app's code (or a recovery code) for one with it; nothing while this
 * session's last answer is under 10 minutes old, until the server says it has expired (its error on this field);
 * nothing at all where the action asks nothing of an account without an app.
 */
export function StepUpField({ ask, passwordLabel, fieldId, error }: { ask: StepUpAsk; passwordLabel?: string; fieldId?: string; error?: string }) {
  const t = useTranslations('portal.stepUp');
  if (ask === 'nothing') return null;
  if (ask === 'password') return <Field label={passwordLabel ?? t('password')} name="password" fieldId={fieldId} type="password" autoComplete="current-password" required error={error} />;
  if (ask === 'none' && !error) {
    return (
      <p className={`${note} mb-4`} data-testid="step-up-fresh">
        {t('fresh')}
      </p>
    );
  }
  return <Field label={t('code')} hint={t('codeHint')} name="password" fieldId={fieldId} type="text" autoComplete="one-time-code" spellCheck={false} required error={error} />;
}
