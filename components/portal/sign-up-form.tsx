'use client';

import { useTranslations } from 'next-intl';
import type { FormEvent } from 'react';
import type { ActionResult } from './action-result';
import { Field, FormMessage } from './field';
import { button } from './styles';
import { useHydrated } from './use-hydrated';
import { usePasswordPairSubmit } from './use-password-pair-submit';

/** Where a sign-up goes, new email or not: sign-in, saying why, then the interface keys. */
export const SIGNED_UP_PATH = '/portal/sign-in?signedUp=1&next=%2Fportal%2Fkeys';

export function SignUpForm({ signUpAction }: { signUpAction: (form: { merchantName: string; email: string; password: string }) => Promise<ActionResult> }) {
  const t = useTranslations('portal.signUp');
  const hydrated = useHydrated();
  const { error, fieldErrors, pending, submit } = usePasswordPairSubmit({ mismatch: t('mismatch'), checkFields: t('checkFields') }, SIGNED_UP_PATH);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    // The same page whether the email was new or already had an account: the sign-up never says which.
    await submit(form, (password) => signUpAction({ merchantName: String(form.get('merchantName') ?? ''), email: String(form.get('email') ?? ''), password }));
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
