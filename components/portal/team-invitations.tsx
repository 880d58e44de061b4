'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { useServerAction } from '@/components/back-office/use-server-action';
import { LocalTime } from '@/components/i18n/local-time';
import type { TeamRole } from '@/lib/accounts/team-roles';
import type { ActionResult } from './action-result';
import { FormMessage } from './field';
import { button, note, table, tableWrap, td, th } from './styles';
import { useHydrated } from './use-hydrated';

export interface ShownInvitation {
  id: number;
  email: string;
  role: TeamRole;
  invitedAt: Date;
  expiresAt: Date;
}

/** The invitations whose links still work, each withdrawn with one button. */
export function TeamInvitations({
  invitations,
  roleNames,
  revokeInvitationAction,
}: {
  invitations: ShownInvitation[];
  roleNames: Record<TeamRole, string>;
  revokeInvitationAction: (invitationId: number) => Promise<ActionResult>;
}) {
  const t = useTranslations('portal.team.invitations');
  const hydrated = useHydrated();
  const { pending, error, run } = useServerAction();
  const [done, setDone] = useState<string>();

  async function revoke(invitation: ShownInvitation) {
    setDone(undefined);
    const result = await run(() => revokeInvitationAction(invitation.id));
    if (result.ok) setDone(t('revoked', { email: invitation.email }));
  }

  return (
    <>
      <FormMessage error={error} success={done} />
      {invitations.length === 0 ? (
        <p className={note} data-testid="no-invitations">
          {t('none')}
        </p>
      ) : (
        <div className={tableWrap} tabIndex={0} role="region" aria-label={t('heading')}>
          <table className={table} data-testid="team-invitations">
            <thead>
              <tr>
                <th className={th}>{t('email')}</th>
                <th className={th}>{t('role')}</th>
                <th className={th}>{t('invited')}</th>
                <th className={th}>{t('expires')}</th>
                <th className={th}>{t('actions')}</th>
              </tr>
            </thead>
            <tbody>
              {invitations.map((invitation) => (
                <tr key={invitation.id} data-testid="team-invitation" data-email={invitation.email}>
                  <td className={td}>{invitation.email}</td>
                  <td className={td}>{roleNames[invitation.role]}</td>
                  <td className={td}>
                    <LocalTime value={invitation.invitedAt} />
                  </td>
                  <td className={td}>
                    <LocalTime value={invitation.expiresAt} />
                  </td>
                  <td className={td}>
                    <button type="button" className={button('secondary', 'sm')} disabled={!hydrated || pending} onClick={() => revoke(invitation)}>
                      {t('revoke', { email: invitation.email })}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
