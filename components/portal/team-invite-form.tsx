'use client';

import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import { useServerAction } from '@/components/back-office/use-server-action';
import { LocalTime } from '@/components/i18n/local-time';
import type { CodeOnlyStepUpAsk } from '@/lib/accounts/step-up';
import { TEAM_ROLES, type TeamRole } from '@/lib/accounts/team-roles';
import type { ActionResult } from './action-result';
import { Field, FormMessage, SelectField } from './field';
import { StepUpField } from './step-up-field';
import { button, codeBlock } from './styles';
import { useHydrated } from './use-hydrated';

/** 'sent' or 'failed' where the service e-mails invitations (SMTP_URL), 'off' where it does not. */
type Mailed = 'sent' | 'failed' | 'off';
type Invitation = { email: string; link: string; expiresAt: string; mailed: Mailed };
type InviteMember = (input: { email: string; role: string; password: string }) => Promise<ActionResult<Invitation>>;

/**
 * The owner's invitation: an email and a role (and the step-up, of an owner with a second factor); the one-time link
 * is shown once, to pass on, and said to be e-mailed where the service sends mail.
 */
export function TeamInviteForm({ roleNames, inviteMemberAction, stepUp }: { roleNames: Record<TeamRole, string>; inviteMemberAction: InviteMember; stepUp: CodeOnlyStepUpAsk }) {
  const t = useTranslations('portal.team.invite');
  const hydrated = useHydrated();
  const { pending, error, fieldErrors, run } = useServerAction();
  const [created, setCreated] = useState<Invitation>();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setCreated(undefined);
    const result = await run(() => inviteMemberAction({ email: String(form.get('email') ?? ''), role: String(form.get('role') ?? ''), password: String(form.get('password') ?? '') }));
    if (result.ok) setCreated(result.data);
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={pending} aria-label={t('heading')}>
      <FormMessage error={error} />
      {created ? (
        <div role="status" className="mb-4 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2.5 text-sm text-emerald-800" data-testid="invitation-created">
          <p className="m-0">
            {t.rich('created', { email: created.email, expires: () => <LocalTime value={new Date(created.expiresAt)} /> })}
          </p>
          <p className={`${codeBlock} bg-white break-all`} aria-label={t('link')} data-testid="invitation-link">
            {created.link}
          </p>
          {created.mailed === 'sent' ? (
            <p className="m-0" data-testid="invitation-mailed">
              {t('mailed', { email: created.email })}
            </p>
          ) : null}
          {created.mailed === 'failed' ? (
            <p className="m-0 font-semibold text-amber-900" data-testid="invitation-mail-failed">
              {t('mailFailed', { email: created.email })}
            </p>
          ) : null}
        </div>
      ) : null}
      <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
        <Field label={t('email')} name="email" type="email" autoComplete="off" required error={fieldErrors.email} fieldId="invite-email" />
        <SelectField label={t('role')} name="role" defaultValue="developer" error={fieldErrors.role} fieldId="invite-role">
          {TEAM_ROLES.map((role) => (
            <option key={role} value={role}>
              {roleNames[role]}
            </option>
          ))}
        </SelectField>
      </div>
      <StepUpField ask={stepUp} fieldId="invite-step-up" error={fieldErrors.password} />
      <button className={button()} type="submit" disabled={pending || !hydrated}>
        {pending ? t('pending') : t('submit')}
      </button>
    </form>
  );
}
