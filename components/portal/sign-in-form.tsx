'use client';

import { getSession, signIn } from 'next-auth/react';
import { useState, type FormEvent } from 'react';
import { Field, FormMessage } from './field';
import { useHydrated } from './use-hydrated';

export function signInErrorMessage(code: string | null | undefined): string {
  if (code === 'Throttled') return 'Too many sign-in attempts. Try again in 15 minutes. / 登录尝试过多，请 15 分钟后再试。';
  return 'Email or password is not correct. / 邮箱或密码不正确。';
}

/**
 * Where a signed-in account goes: an operator to the console, a merchant to the portal; `next` (already limited to
 * those two areas by the page) is followed only inside the account's own area.
 */
export function landingFor(role: string | undefined, next: string | undefined): string {
  const home = role === 'operator' ? '/operator' : '/portal';
  return next && (next === home || next.startsWith(`${home}/`) || next.startsWith(`${home}?`)) ? next : home;
}

export function SignInForm({ initialError, next }: { initialError?: string; next?: string }) {
  const hydrated = useHydrated();
  const [error, setError] = useState(initialError);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(undefined);
    const result = await signIn('credentials', { email: String(form.get('email') ?? ''), password: String(form.get('password') ?? ''), redirect: false });
    if (result?.ok && !result.error) {
      const session = await getSession();
      window.location.assign(landingFor(session?.role, next));
      return;
    }
    setPending(false);
    setError(signInErrorMessage(result?.error));
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={pending}>
      <FormMessage error={error} />
      <Field label="Email · 邮箱" name="email" type="email" autoComplete="username" required />
      <Field label="Password · 密码" name="password" type="password" autoComplete="current-password" required />
      <button className="button" type="submit" disabled={pending || !hydrated}>
        {pending ? 'Signing in… · 登录中…' : 'Sign in · 登录'}
      </button>
    </form>
  );
}
