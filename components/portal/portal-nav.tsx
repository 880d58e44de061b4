'use client';

import { useLocale, useTranslations } from 'next-intl';
import { BackOfficeNav } from '@/components/back-office/back-office-nav';
import type { Locale } from '@/lib/i18n/locales';
import { roleMay, type TeamAbility, type TeamRole } from '@/lib/accounts/team-roles';

/** Each page, with what the member's role needs to open it (none: every member). */
const LINKS: readonly { href: string; key: string; ability?: TeamAbility }[] = [
  { href: '/portal', key: 'overview' },
  { href: '/portal/orders', key: 'orders', ability: 'viewOrders' },
  { href: '/portal/keys', key: 'keys', ability: 'keys' },
  { href: '/portal/credentials', key: 'credentials', ability: 'credentials' },
  { href: '/portal/branding', key: 'branding', ability: 'branding' },
  { href: '/portal/signature', key: 'signature', ability: 'developerTools' },
  { href: '/portal/api', key: 'api', ability: 'developerTools' },
  { href: '/portal/test', key: 'test', ability: 'developerTools' },
  { href: '/portal/team', key: 'team', ability: 'team' },
  { href: '/portal/account', key: 'account' },
];

export function PortalNav({
  merchantName,
  email,
  badges = {},
  testMode = false,
  teamRole,
  onlyAccount = false,
}: {
  merchantName: string;
  email: string;
  badges?: Partial<Record<string, string>>;
  /** The test-mode page is listed only while the sandbox is on. */
  testMode?: boolean;
  /** Only the pages the role opens are listed (each page checks the role itself too). */
  teamRole: TeamRole;
  /** While a required two-step set-up is pending, the account page is the only one that opens. */
  onlyAccount?: boolean;
}) {
  const t = useTranslations('portal.nav');
  const common = useTranslations('common');
  return (
    <BackOfficeNav
      title={merchantName}
      label={t('label')}
      home="/portal"
      email={email}
      locale={useLocale() as Locale}
      links={LINKS.filter((link) => (onlyAccount ? link.key === 'account' : (testMode || link.key !== 'test') && (!link.ability || roleMay(teamRole, link.ability)))).map((link) => ({ href: link.href, label: t(`links.${link.key}`), badge: badges[link.key] }))}
      texts={{ menu: common('nav.menu'), signOut: common('nav.signOut'), language: common('languageSwitch.label') }}
    />
  );
}
