'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import type { ActionResult } from './action-result';
import { Field, FormMessage } from './field';
import { button } from './styles';
import { useHydrated } from './use-hydrated';

/** Where a sign-up goes, new email or not: sign-in, saying why, then the interface keys. */
export const SIGNED_UP_PATH = '/portal/sign-in?signedUp=1&next=%2Fportal%2Fkeys';

export function SignUpForm({ signUpAction }: { signUpAction: (form: { merchantName: string; email: string; password: string }) => Promise<ActionResult> }) {
  const t = useTranslations('portal.signUp');
  const hydrated = useHydrated();
  const router = useRouter();
  const [error, setError] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values = { merchantName: String(form.get('merchantName') ?? ''), email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') };
    if (values.password !== String(form.get('confirmPassword') ?? '')) {
      setFieldErrors({ confirmPassword: t('mismatch') });
      setError(t('checkFields'));
      return;
    }
    setPending(true);
    setError(undefined);
    setFieldErrors({});
    const result = await signUpAction(values);
    if (!result.ok) {
      setPending(false);
      setError(result.message);
      setFieldErrors(result.fieldErrors ?? {});
      return;
    }
    // The same page whether the email was new or already had an account: the sign-up never says which.
    router.push(SIGNED_UP_PATH);
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={pending}>
      <FormMessage error={error} />
      <Field label={t('name')} name="merchantName" autoComplete="organization" required error={fieldErrors.merchantName} />
      <Field label={t('email')} name="email" type="email" autoComplete="username" required error={fieldErrors.email} />
      <Field
        label={t('password')}
        name="password"
        type="password"
        autoComplete="new-password"
        hint={t('passwordHint')}
        required
        error={fieldErrors.password}
      />
      <Field label={t('confirm')} name="confirmPassword" type="password" autoComplete="new-password" required error={fieldErrors.confirmPassword} />
      <button className={button()} type="submit" disabled={pending || !hydrated}>
        {pending ? t('pending') : t('submit')}
      </button>
    </form>
  );
}
