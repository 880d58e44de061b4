import Link from 'next/link';
import { getLocale, getTranslations } from 'next-intl/server';
import { LanguageSwitch } from '@/components/i18n/language-switch';
import { LocalTime } from '@/components/i18n/local-time';
import { InvitationForm } from '@/components/portal/invitation-form';
import { card, link, note, pageTitle } from '@/components/portal/styles';
import { invitationOfToken } from '@/lib/accounts/team-invitations';
import { getDb } from '@/lib/db/client';
import { isLocale } from '@/lib/i18n/locales';
import { acceptInvitationAction } from './actions';

/** An invitation link: the sign-up form while it is open, else a page that says why it no longer works. */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const [t, roles, common, locale, invitation] = await Promise.all([
    getTranslations('portal.invite'),
    getTranslations('domain.accounts.teamRoles'),
    getTranslations('common'),
    getLocale(),
    invitationOfToken(getDb(), token, new Date()),
  ]);
  return (
    <main id="main" className={`${card} mx-auto my-6 max-w-md sm:my-12`} data-testid="invitation" data-state={invitation.state}>
      <LanguageSwitch locale={isLocale(locale) ? locale : 'en'} returnTo={`/portal/invite/${encodeURIComponent(token)}`} label={common('languageSwitch.label')} className="auth-language" />
      {invitation.state === 'open' ? (
        <>
          <h1 className={pageTitle}>{t('title', { merchant: invitation.merchantName })}</h1>
          <p className="mt-0 mb-2">{t('intro', { merchant: invitation.merchantName, email: invitation.email, role: roles(invitation.role) })}</p>
          <p className={`${note} mb-4`}>{t.rich('expires', { expires: () => <LocalTime value={invitation.expiresAt} /> })}</p>
          <InvitationForm token={token} email={invitation.email} acceptInvitationAction={acceptInvitationAction} />
        </>
      ) : (
        <>
          <h1 className={pageTitle}>{t(`closed.${invitation.state}.title`)}</h1>
          <p className={`${note} mb-4`}>{t(`closed.${invitation.state}.body`)}</p>
          <Link className={link} href="/portal/sign-in">
            {t('signIn')}
          </Link>
        </>
      )}
    </main>
  );
}
