'use client';

import { useLocale, useTranslations } from 'next-intl';
import { BackOfficeNav } from '@/components/back-office/back-office-nav';
import type { Locale } from '@/lib/i18n/locales';

const LINKS = [
  { href: '/operator', key: 'overview' },
  { href: '/operator/merchants', key: 'merchants' },
  { href: '/operator/credentials', key: 'credentials' },
  { href: '/operator/addresses', key: 'addresses' },
  { href: '/operator/attention', key: 'attention' },
  { href: '/operator/reconciliation', key: 'reconciliation' },
  { href: '/operator/audit', key: 'audit' },
  { href: '/operator/health', key: 'health' },
  { href: '/operator/account', key: 'account' },
] as const;

/** `onlyAccount`: the operator must set up two-step sign-in first, and reaches nothing else. */
export function OperatorNav({ email, badges = {}, onlyAccount = false }: { email: string; badges?: Partial<Record<(typeof LINKS)[number]['key'], string>>; onlyAccount?: boolean }) {
  const t = useTranslations('console.nav');
  const common = useTranslations('common');
  return (
    <BackOfficeNav
      title={t('title')}
      label={t('title')}
      home={onlyAccount ? '/operator/account' : '/operator'}
      email={email}
      emailTestId="operator-email"
      locale={useLocale() as Locale}
      links={LINKS.filter((link) => !onlyAccount || link.key === 'account').map((link) => ({ href: link.href, label: t(`links.${link.key}`), badge: badges[link.key] }))}
      texts={{ menu: common('nav.menu'), signOut: common('nav.signOut'), language: common('languageSwitch.label') }}
    />
  );
}
