'use client';

import { signIn } from 'next-auth/react';
import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import type { ActionResult } from './action-result';
import { Field, FormMessage } from './field';
import { button } from './styles';
import { useHydrated } from './use-hydrated';

export function PasswordForm({ changePasswordAction }: { changePasswordAction: (input: { password: string; newPassword: string }) => Promise<ActionResult<{ email: string }>> }) {
  const t = useTranslations('portal.account');
  const hydrated = useHydrated();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const newPassword = String(data.get('newPassword') ?? '');
    if (newPassword !== String(data.get('confirmPassword') ?? '')) {
      setErrors({ confirmPassword: t('mismatch') });
      setMessage({ error: t('checkFields') });
      return;
    }
    setPending(true);
    const result = await changePasswordAction({ password: String(data.get('password') ?? ''), newPassword });
    if (!result.ok) {
      setPending(false);
      setErrors(result.fieldErrors ?? {});
      setMessage({ error: result.message });
      return;
    }
    // The old session ended with the change; this one continues under the new password.
    const renewed = await signIn('credentials', { email: result.data.email, password: newPassword, redirect: false });
    // An account with an authenticator app signs in again with its code, on the sign-in page.
    if (!renewed?.ok || renewed.error) {
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load: the session has ended
      window.location.assign('/portal/sign-in');
      return;
    }
    setPending(false);
    setErrors({});
    setMessage({ success: t('changed') });
    form.reset();
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={pending}>
      <FormMessage error={message.error} success={message.success} />
      <Field label={t('current')} name="password" type="password" autoComplete="current-password" required error={errors.password} />
      <Field
        label={t('new')}
        name="newPassword"
        type="password"
        autoComplete="new-password"
        hint={t('hint')}
        required
        error={errors.newPassword}
      />
      <Field label={t('confirm')} name="confirmPassword" type="password" autoComplete="new-password" required error={errors.confirmPassword} />
      <button type="submit" className={button()} disabled={pending || !hydrated}>
        {t('submit')}
      </button>
    </form>
  );
}
