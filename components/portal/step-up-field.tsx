'use client';

import { useTranslations } from 'next-intl';
import type { CodeOnlyStepUpAsk, StepUpAsk } from '@/lib/accounts/step-up';
import { PasskeyStepUpButton } from '@/components/back-office/passkey-step-up-button';
import { Field } from './field';
import { note } from './styles';

type StepUpFieldProps = { fieldId?: string; error?: string } & (
  | { ask: StepUpAsk; /** The form's own words for its password, where it asked one before the step-up. */ passwordLabel: string }
  | { ask: CodeOnlyStepUpAsk; passwordLabel?: never }
);

/**
 * The confirmation a sensitive form asks before it runs (lib/accounts/step-up.ts), posted as `password`: the password
 * for an account without a second factor; the app's code, one of its passkeys (a button) or a recovery code for one
 * with it; nothing while this session's last answer is under 10 minutes old, until the server says it has expired
 * (its error on this field; then both ways are offered); nothing at all where the action asks nothing of an account
 * without a second factor.
 */
export function StepUpField({ ask, passwordLabel, fieldId, error }: StepUpFieldProps) {
  const t = useTranslations('portal.stepUp');
  if (ask === 'nothing') return null;
  if (ask === 'password') return <Field label={passwordLabel} name="password" fieldId={fieldId} type="password" autoComplete="current-password" required error={error} />;
  if (ask === 'none' && !error) {
    return (
      <p className={`${note} mb-4`} data-testid="step-up-fresh">
        {t('fresh')}
      </p>
    );
  }
  // An account with passkeys confirms with one (the button), or types a code: a recovery code where it has no app.
  const withPasskey = ask === 'passkey' || ask === 'code_or_passkey' || ask === 'none';
  return (
    <>
      {withPasskey ? <PasskeyStepUpButton /> : null}
      {ask === 'passkey' ? (
        <Field label={t('recoveryCode')} hint={t('recoveryCodeHint')} name="password" fieldId={fieldId} type="text" autoComplete="one-time-code" spellCheck={false} error={error} />
      ) : (
        <Field label={t('code')} hint={t('codeHint')} name="password" fieldId={fieldId} type="text" autoComplete="one-time-code" spellCheck={false} required error={error} />
      )}
    </>
  );
}
