import type { ReactNode } from 'react';
import { PortalNav } from '@/components/portal/portal-nav';
import { requireMerchant } from '../_session/require-merchant';

/** Every page below checks the session itself too (layouts are not re-run on client navigation). */
export default async function MerchantLayout({ children }: { children: ReactNode }) {
  const merchant = await requireMerchant();
  return (
    <>
      <PortalNav merchantName={merchant.merchantName} email={merchant.email} />
      <main id="main">{children}</main>
    </>
  );
}
