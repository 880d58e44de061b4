'use client';

import { useTranslations } from 'next-intl';
import type { FormEvent } from 'react';
import type { ActionResult } from './action-result';
import { Field, FormMessage } from './field';
import { button } from './styles';
import { useHydrated } from './use-hydrated';
import { usePasswordPairSubmit } from './use-password-pair-submit';

/** Where a person who joined goes: sign-in, saying they joined. */
export const JOINED_PATH = '/portal/sign-in?joined=1';

type AcceptInvitation = (token: string, input: { password: string }) => Promise<ActionResult<{ email: string }>>;

/** The invited person's password (twice); the email is the invitation's. */
export function InvitationForm({ token, email, acceptInvitationAction }: { token: string; email: string; acceptInvitationAction: AcceptInvitation }) {
  const t = useTranslations('portal.invite');
  const hydrated = useHydrated();
  const { error, fieldErrors, pending, submit } = usePasswordPairSubmit({ mismatch: t('mismatch'), checkFields: t('checkFields') }, JOINED_PATH);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await submit(new FormData(event.currentTarget), (password) => acceptInvitationAction(token, { password }));
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={pending}>
      <FormMessage error={error} />
      <Field label={t('email')} name="email" type="email" autoComplete="username" value={email} readOnly />
      <Field label={t('password')} name="password" type="password" autoComplete="new-password" hint={t('passwordHint')} required error={fieldErrors.password} />
      <Field label={t('confirm')} name="confirmPassword" type="password" autoComplete="new-password" required error={fieldErrors.confirmPassword} />
      <button className={button()} type="submit" disabled={pending || !hydrated}>
        {pending ? t('pending') : t('submit')}
      </button>
    </form>
  );
}
