'use client';

import { getSession, signIn } from 'next-auth/react';
import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import { Field, FormMessage } from './field';
import { signInErrorCode } from './sign-in-error-code';
import { useHydrated } from './use-hydrated';

/**
 * Where a signed-in account goes: an operator to the console, a merchant to the portal; `next` (already limited to
 * those two areas by the page) is followed only inside the account's own area.
 */
export function landingFor(role: string | undefined, next: string | undefined): string {
  const home = role === 'operator' ? '/operator' : '/portal';
  return next && (next === home || next.startsWith(`${home}/`) || next.startsWith(`${home}?`)) ? next : home;
}

export function SignInForm({ initialError, notice, next }: { initialError?: string; notice?: string; next?: string }) {
  const t = useTranslations('portal.signIn');
  const hydrated = useHydrated();
  const [error, setError] = useState(initialError);
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string; code?: string }>({});
  const [pending, setPending] = useState(false);
  // Asked for once the password was right and the account has an authenticator app; the password stays in its field.
  const [askCode, setAskCode] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email') ?? '').trim();
    const password = String(form.get('password') ?? '');
    const code = String(form.get('code') ?? '').trim();
    // An empty field is named, not reported as a wrong email or password.
    const missing = { email: email ? undefined : t('emailMissing'), password: password ? undefined : t('passwordMissing') };
    setFieldErrors(missing);
    if (missing.email || missing.password) {
      setError(missing.email && missing.password ? t('bothMissing') : (missing.email ?? missing.password));
      return;
    }
    if (askCode && !code) {
      setFieldErrors({ code: t('codeMissing') });
      setError(t('codeMissing'));
      return;
    }
    setPending(true);
    setError(undefined);
    const result = await signIn('credentials', { email, password, code, redirect: false });
    if (result?.ok && !result.error) {
      const session = await getSession();
      window.location.assign(landingFor(session?.role, next));
      return;
    }
    setPending(false);
    const failure = signInErrorCode(result?.error);
    if (failure === 'SecondFactorRequired') setAskCode(true);
    setFieldErrors(failure === 'SecondFactorInvalid' ? { code: t('codeWrongField') } : {});
    setError(t(`errors.${failure}`));
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={pending}>
      <FormMessage error={error} success={error ? undefined : notice} />
      <Field label={t('email')} name="email" type="email" autoComplete="username" required error={fieldErrors.email} />
      <Field label={t('password')} name="password" type="password" autoComplete="current-password" required error={fieldErrors.password} />
      {askCode ? <Field label={t('code')} hint={t('codeHint')} name="code" type="text" inputMode="text" autoComplete="one-time-code" required autoFocus error={fieldErrors.code} /> : null}
      <button className="button" type="submit" disabled={pending || !hydrated}>
        {pending ? t('pending') : t('submit')}
      </button>
    </form>
  );
}
