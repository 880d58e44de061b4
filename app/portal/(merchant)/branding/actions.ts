'use server';

import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { BrandingRefused, saveMerchantBranding } from '@/lib/merchants/branding';
import { requireMerchant } from '../../_session/require-merchant';

/**
 * Saves the checkout branding from the plain form (works without script), then shows the page again (POST-redirect-GET);
 * a role without branding is sent to the page that says so, as for the page itself.
 */
export async function saveBrandingAction(form: FormData): Promise<void> {
  const merchant = await requireMerchant('branding');
  const file = form.get('logo');
  const logo = file instanceof File && file.size > 0 ? new Uint8Array(await file.arrayBuffer()) : undefined;
  try {
    await saveMerchantBranding(getDb(), merchant.merchantId, {
      displayName: String(form.get('displayName') ?? ''),
      logo,
      removeLogo: form.get('removeLogo') === 'on',
    });
  } catch (error) {
    if (error instanceof BrandingRefused) redirect(`/portal/branding?refused=${error.reason}`);
    throw error;
  }
  redirect('/portal/branding?saved=1');
}
