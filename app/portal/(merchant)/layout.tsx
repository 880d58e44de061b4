import type { ReactNode } from 'react';
import { getTranslations } from 'next-intl/server';
import { SecondFactorResetNotice } from '@/components/back-office/second-factor-reset-notice';
import { PortalNav } from '@/components/portal/portal-nav';
import { getDb } from '@/lib/db/client';
import { failingDestinations } from '@/lib/notifications/failing-destinations';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { requireMerchantSession } from '../_session/require-merchant';

/** Every page below checks the session itself too (layouts are not re-run on client navigation). */
export default async function MerchantLayout({ children }: { children: ReactNode }) {
  // The account page opens during a required set-up of two-step sign-in; every other page checks that itself.
  const { merchant } = await requireMerchantSession({ duringSecondFactorSetUp: true });
  const [failing, t] = await Promise.all([failingDestinations(getDb(), new Date(), { merchantId: merchant.merchantId }), getTranslations('portal.nav')]);
  // The badge sits on Overview, where the notice explains it.
  const badges = failing.length > 0 ? { overview: t('failingBadge') } : {};
  return (
    <>
      <PortalNav merchantName={merchant.merchantName} email={merchant.email} badges={badges} testMode={sandboxEnabled()} teamRole={merchant.teamRole} onlyAccount={merchant.mustSetUpSecondFactor} />
      <SecondFactorResetNotice resetAt={merchant.secondFactorResetAt} accountPage="/portal/account" />
      <main id="main">{children}</main>
    </>
  );
}
