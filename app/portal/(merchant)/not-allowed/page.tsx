import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { card, link, note, pageTitle } from '@/components/portal/styles';
import { TEAM_ABILITIES } from '@/lib/accounts/team-roles';
import { requireMerchant } from '../../_session/require-merchant';

/** Where a page the member's role does not open sends them: what their role is, and who can change it. */
export default async function NotAllowedPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await requireMerchant();
  const { page } = await searchParams;
  const [t, roles] = await Promise.all([getTranslations('portal.notAllowed'), getTranslations('domain.accounts.teamRoles')]);
  const named = TEAM_ABILITIES.find((ability) => ability === page) ?? 'other';
  return (
    <>
      <h1 className={pageTitle}>{t('title')}</h1>
      <section className={card} data-testid="not-allowed">
        <p className="mt-0 mb-2">{t('body', { merchant: merchant.merchantName, role: roles(merchant.teamRole), page: t(`pages.${named}`) })}</p>
        <p className={`${note} mb-3`}>{t('ask')}</p>
        <Link className={link} href="/portal">
          {t('back')}
        </Link>
      </section>
    </>
  );
}
