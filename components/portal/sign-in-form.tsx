'use client';

import { getSession, signIn } from 'next-auth/react';
import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import { ceremonyFailureOf, passkeyAnswer } from '@/components/back-office/passkey-ceremony';
import { Field, FormMessage } from './field';
import { button, note } from './styles';
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

  /** Signs in with what next-auth's credentials sign-in was given; on a refusal, shows why and returns it. */
  async function signInWith(credentials: Record<string, string>) {
    setPending(true);
    setError(undefined);
    const result = await signIn('credentials', { ...credentials, redirect: false });
    if (result?.ok && !result.error) {
      const session = await getSession();
      window.location.assign(landingFor(session?.role, next));
      return undefined;
    }
    setPending(false);
    const failure = signInErrorCode(result?.error);
    setError(t(`errors.${failure}`));
    return failure;
  }

  /** A passkey's ceremony: alone (no email, no password), or as the second step after the password. */
  async function withPasskey(purpose: 'sign_in' | 'second_factor', form: HTMLFormElement | null) {
    setFieldErrors({});
    let answer: string;
    try {
      answer = await passkeyAnswer(purpose);
    } catch (failure) {
      setError(t(ceremonyFailureOf(failure) === 'refused' ? 'errors.Throttled' : 'errors.PasskeyFailed'));
      return;
    }
    if (purpose === 'sign_in') {
      await signInWith({ passkey: answer });
      return;
    }
    const data = new FormData(form ?? undefined);
    const failure = await signInWith({ email: String(data.get('email') ?? '').trim(), password: String(data.get('password') ?? ''), code: answer });
    if (failure === 'SecondFactorInvalid') setError(t('errors.PasskeyInvalid'));
  }

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
    const failure = await signInWith({ email, password, code });
    if (failure === 'SecondFactorRequired') setAskCode(true);
    setFieldErrors(failure === 'SecondFactorInvalid' ? { code: t('codeWrongField') } : {});
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={pending}>
      <FormMessage error={error} success={error ? undefined : notice} />
      {askCode ? null : (
        <>
          <button className={`${button('secondary')} w-full`} type="button" disabled={pending || !hydrated} onClick={() => void withPasskey('sign_in', null)} data-testid="sign-in-passkey">
            {t('withPasskey')}
          </button>
          <p className={`${note} my-4 text-center`}>{t('orPassword')}</p>
        </>
      )}
      <Field label={t('email')} name="email" type="email" autoComplete="username" required error={fieldErrors.email} />
      <Field label={t('password')} name="password" type="password" autoComplete="current-password" required error={fieldErrors.password} />
      {askCode ? (
        <>
          <Field label={t('code')} hint={t('codeHint')} name="code" type="text" inputMode="text" autoComplete="one-time-code" required autoFocus error={fieldErrors.code} />
          <p className="mt-0 mb-4">
            <button className={button('secondary', 'sm')} type="button" disabled={pending || !hydrated} onClick={(event) => void withPasskey('second_factor', event.currentTarget.form)} data-testid="second-step-passkey">
              {t('usePasskey')}
            </button>
          </p>
        </>
      ) : null}
      <button className="button" type="submit" disabled={pending || !hydrated}>
        {pending ? t('pending') : t('submit')}
      </button>
    </form>
  );
}
