'use client';

import { useLocale, useTranslations } from 'next-intl';
import { BackOfficeNav } from '@/components/back-office/back-office-nav';
import type { Locale } from '@/lib/i18n/locales';

const LINKS = [
  { href: '/portal', key: 'overview' },
  { href: '/portal/orders', key: 'orders' },
  { href: '/portal/keys', key: 'keys' },
  { href: '/portal/credentials', key: 'credentials' },
  { href: '/portal/branding', key: 'branding' },
  { href: '/portal/signature', key: 'signature' },
  { href: '/portal/api', key: 'api' },
  { href: '/portal/test', key: 'test' },
  { href: '/portal/account', key: 'account' },
] as const;

export function PortalNav({
  merchantName,
  email,
  badges = {},
  testMode = false,
}: {
  merchantName: string;
  email: string;
  badges?: Partial<Record<(typeof LINKS)[number]['key'], string>>;
  /** The test-mode page is listed only while the sandbox is on. */
  testMode?: boolean;
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
      links={LINKS.filter((link) => testMode || link.key !== 'test').map((link) => ({ href: link.href, label: t(`links.${link.key}`), badge: badges[link.key] }))}
      texts={{ menu: common('nav.menu'), signOut: common('nav.signOut'), language: common('languageSwitch.label') }}
    />
  );
}
