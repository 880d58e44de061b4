'use client';

import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import { useServerAction } from '@/components/back-office/use-server-action';
import { TEAM_ROLES, type TeamRole } from '@/lib/accounts/team-roles';
import type { ActionResult } from './action-result';
import { FormMessage, SelectField } from './field';
import { button, fieldError, note } from './styles';
import { useHydrated } from './use-hydrated';

type TransferOwnership = (accountId: number, ownNewRole: string) => Promise<ActionResult<{ email: string }>>;

/** Hands the team to another member, confirmed; the owner then holds the role they chose and leaves this page. */
export function TeamTransfer({
  candidates,
  roleNames,
  transferOwnershipAction,
}: {
  candidates: { accountId: number; email: string }[];
  roleNames: Record<TeamRole, string>;
  transferOwnershipAction: TransferOwnership;
}) {
  const t = useTranslations('portal.team.transfer');
  const hydrated = useHydrated();
  const { pending, error, run, setError } = useServerAction();
  const [unconfirmed, setUnconfirmed] = useState(false);

  if (candidates.length === 0) return <p className={note}>{t('noMembers')}</p>;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    if (form.get('confirmed') !== 'on') {
      setUnconfirmed(true);
      setError(t('confirmRequired'));
      return;
    }
    setUnconfirmed(false);
    const result = await run(() => transferOwnershipAction(Number(form.get('member')), String(form.get('ownRole') ?? '')));
    // The page is the owner's no more: a full load shows what the new role opens.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    if (result.ok) window.location.assign('/portal');
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={pending} aria-label={t('heading')}>
      <FormMessage error={error} />
      <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
        <SelectField label={t('member')} name="member" fieldId="transfer-member">
          {candidates.map((candidate) => (
            <option key={candidate.accountId} value={candidate.accountId}>
              {candidate.email}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('ownRole')} name="ownRole" defaultValue="developer" fieldId="transfer-own-role">
          {TEAM_ROLES.filter((role) => role !== 'owner').map((role) => (
            <option key={role} value={role}>
              {roleNames[role]}
            </option>
          ))}
        </SelectField>
      </div>
      <label className="mb-4 flex items-start gap-2 text-sm">
        <input type="checkbox" name="confirmed" className="mt-1" aria-invalid={unconfirmed || undefined} aria-describedby={unconfirmed ? 'transfer-confirm-error' : undefined} />
        {t('confirm')}
      </label>
      {unconfirmed ? (
        <p id="transfer-confirm-error" className={`${fieldError} -mt-3 mb-4`} role="alert">
          {t('confirmRequired')}
        </p>
      ) : null}
      <button className={button('danger')} type="submit" disabled={pending || !hydrated}>
        {t('submit')}
      </button>
    </form>
  );
}
