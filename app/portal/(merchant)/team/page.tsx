import { getTranslations } from 'next-intl/server';
import { TeamInviteForm } from '@/components/portal/team-invite-form';
import { TeamInvitations } from '@/components/portal/team-invitations';
import { TeamMembers } from '@/components/portal/team-members';
import { TeamTransfer } from '@/components/portal/team-transfer';
import { TeamSecondFactorForm } from '@/components/portal/team-second-factor-form';
import { card, note, pageTitle, sectionTitle } from '@/components/portal/styles';
import { stepUpAsk } from '@/lib/accounts/step-up';
import { listTeam } from '@/lib/accounts/team-members';
import { TEAM_ROLES, type TeamRole } from '@/lib/accounts/team-roles';
import { getDb } from '@/lib/db/client';
import { requireMerchant } from '../../_session/require-merchant';
import { changeRoleAction, inviteMemberAction, removeMemberAction, revokeInvitationAction, setTeamSecondFactorAction, transferOwnershipAction } from './actions';

/** The owner's page of the team: members and their roles, invitations, and the hand-over of the team. */
export default async function TeamPage() {
  const merchant = await requireMerchant('team');
  const now = new Date();
  const [t, team, stepUp] = await Promise.all([getTranslations('portal.team'), listTeam(getDb(), merchant.merchantId, now), stepUpAsk(getDb(), merchant, now, 'nothing')]);
  const others = team.members.filter((member) => member.accountId !== merchant.accountId);
  const roles = await getTranslations('domain.accounts.teamRoles');
  const roleNames = Object.fromEntries(TEAM_ROLES.map((role) => [role, roles(role)])) as Record<TeamRole, string>;
  return (
    <>
      <h1 className={pageTitle}>{t('title')}</h1>
      <p className={`${note} mb-4`}>{t('intro')}</p>
      <section className={card} aria-labelledby="members-heading">
        <h2 id="members-heading" className={sectionTitle}>
          {t('members.heading')}
        </h2>
        <TeamMembers members={team.members} selfId={merchant.accountId} roleNames={roleNames} actions={{ changeRoleAction, removeMemberAction }} />
      </section>
      <section className={card} aria-labelledby="invite-heading">
        <h2 id="invite-heading" className={sectionTitle}>
          {t('invite.heading')}
        </h2>
        <p className={`${note} mb-4`}>{t('invite.intro')}</p>
        <TeamInviteForm roleNames={roleNames} inviteMemberAction={inviteMemberAction} stepUp={stepUp} />
        <h3 className="mt-6 mb-2 text-base font-semibold">{t('invitations.heading')}</h3>
        <TeamInvitations invitations={team.invitations} roleNames={roleNames} revokeInvitationAction={revokeInvitationAction} />
      </section>
      <section className={card} aria-labelledby="team-second-factor-heading">
        <h2 id="team-second-factor-heading" className={sectionTitle}>
          {t('secondFactor.heading')}
        </h2>
        <p className={`${note} mb-4`}>{t('secondFactor.intro', { without: team.members.filter((member) => !member.secondFactor).length })}</p>
        <TeamSecondFactorForm required={team.secondFactorRequired} setTeamSecondFactorAction={setTeamSecondFactorAction} stepUp={stepUp} />
      </section>
      <section className={card} aria-labelledby="transfer-heading">
        <h2 id="transfer-heading" className={sectionTitle}>
          {t('transfer.heading')}
        </h2>
        <p className={`${note} mb-4`}>{t('transfer.intro')}</p>
        <TeamTransfer roleNames={roleNames} candidates={others.map(({ accountId, email }) => ({ accountId, email }))} transferOwnershipAction={transferOwnershipAction} />
      </section>
      <section className={card} aria-labelledby="roles-heading" data-testid="team-roles">
        <h2 id="roles-heading" className={sectionTitle}>
          {t('rolesHeading')}
        </h2>
        <dl className="m-0 grid grid-cols-1 gap-x-5 gap-y-1 sm:grid-cols-[max-content_1fr]">
          {TEAM_ROLES.map((role) => (
            <div key={role} className="contents">
              <dt className="mt-2 font-semibold sm:mt-0">{roleNames[role]}</dt>
              <dd className={`${note} m-0`}>{t(`roleHints.${role}`)}</dd>
            </div>
          ))}
        </dl>
      </section>
    </>
  );
}

