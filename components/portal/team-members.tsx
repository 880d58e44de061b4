'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { useServerAction } from '@/components/back-office/use-server-action';
import { LocalTime } from '@/components/i18n/local-time';
import { TEAM_ROLES, type TeamRole } from '@/lib/accounts/team-roles';
import type { ActionResult } from './action-result';
import { FormMessage } from './field';
import { button, control, table, tableWrap, td, th } from './styles';
import { useHydrated } from './use-hydrated';

export interface ShownMember {
  accountId: number;
  email: string;
  role: TeamRole;
  joinedAt: Date;
  secondFactor: boolean;
}

interface MemberActions {
  changeRoleAction: (accountId: number, role: string) => Promise<ActionResult<{ email: string; role: string }>>;
  removeMemberAction: (accountId: number) => Promise<ActionResult<{ email: string }>>;
}

/** The team's members with their roles; the owner changes a member's role or removes them (confirmed). */
export function TeamMembers({ members, selfId, roleNames, actions }: { members: ShownMember[]; selfId: number; roleNames: Record<TeamRole, string>; actions: MemberActions }) {
  const t = useTranslations('portal.team.members');
  const roleName = (role: TeamRole) => roleNames[role];
  const hydrated = useHydrated();
  const { pending, error, run } = useServerAction();
  const [done, setDone] = useState<string>();
  const [confirming, setConfirming] = useState<number>();
  const [chosen, setChosen] = useState<Record<number, TeamRole>>({});

  async function changeRole(member: ShownMember) {
    setDone(undefined);
    const result = await run(() => actions.changeRoleAction(member.accountId, chosen[member.accountId] ?? member.role));
    if (result.ok) setDone(t('roleChanged', { email: result.data.email, role: roleName(result.data.role as TeamRole) }));
  }

  async function remove(member: ShownMember) {
    setDone(undefined);
    const result = await run(() => actions.removeMemberAction(member.accountId));
    setConfirming(undefined);
    if (result.ok) setDone(t('removed', { email: result.data.email }));
  }

  return (
    <>
      <FormMessage error={error} success={done} />
      <div className={tableWrap} tabIndex={0} role="region" aria-labelledby="members-heading">
        <table className={table} data-testid="team-members">
          <thead>
            <tr>
              <th className={th}>{t('email')}</th>
              <th className={th}>{t('role')}</th>
              <th className={th}>{t('secondFactor')}</th>
              <th className={th}>{t('joined')}</th>
              <th className={th}>{t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => (
              <tr key={member.accountId} data-testid="team-member" data-email={member.email} data-role={member.role}>
                <td className={td}>
                  {member.email}
                  {member.accountId === selfId ? <strong className="ml-2 text-teal-800">({t('you')})</strong> : null}
                </td>
                <td className={td}>{roleName(member.role)}</td>
                <td className={td}>{member.secondFactor ? t('on') : t('off')}</td>
                <td className={td}>
                  <LocalTime value={member.joinedAt} />
                </td>
                <td className={td}>
                  <div className="flex flex-wrap items-center gap-2">
                    <select
                      className={`${control} w-auto py-1 text-sm`}
                      aria-label={t('roleOf', { email: member.email })}
                      value={chosen[member.accountId] ?? member.role}
                      onChange={(event) => setChosen({ ...chosen, [member.accountId]: event.target.value as TeamRole })}
                    >
                      {TEAM_ROLES.map((role) => (
                        <option key={role} value={role}>
                          {roleName(role)}
                        </option>
                      ))}
                    </select>
                    <button type="button" className={button('secondary', 'sm')} disabled={!hydrated || pending} onClick={() => changeRole(member)} aria-label={t('changeRole', { email: member.email })}>
                      {t('changeRoleShort')}
                    </button>
                    {member.accountId === selfId ? null : confirming === member.accountId ? (
                      <>
                        <button type="button" className={button('danger', 'sm')} disabled={pending} onClick={() => remove(member)}>
                          {t('confirmRemove', { email: member.email })}
                        </button>
                        <button type="button" className={button('secondary', 'sm')} onClick={() => setConfirming(undefined)}>
                          {t('cancel')}
                        </button>
                      </>
                    ) : (
                      <button type="button" className={button('secondary', 'sm')} disabled={!hydrated || pending} onClick={() => setConfirming(member.accountId)}>
                        {t('remove', { email: member.email })}
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
