import { getDb } from '@/lib/db/client';
import { findMerchantBranding, MAX_DISPLAY_NAME_CHARS } from '@/lib/merchants/branding';
import { checkoutTranslations } from '@/components/checkout/checkout-locale';
import { card, note, pageTitle, sectionTitle } from '@/components/portal/styles';
import { requireMerchant } from '../../_session/require-merchant';
import { saveBrandingAction } from './actions';

const REFUSALS = new Set(['displayNameLength', 'displayNameCharacters', 'logoSize', 'logoType']);

/** What the merchant's payers see on the checkout: the display name and an optional logo (PNG, JPEG or WebP, ≤ 100 KB). */
export default async function BrandingPage({ searchParams }: { searchParams: Promise<{ saved?: string; refused?: string }> }) {
  const merchant = await requireMerchant('branding');
  const { saved, refused } = await searchParams;
  const branding = await findMerchantBranding(getDb(), merchant.merchantId);
  const { t } = await checkoutTranslations(undefined);
  return (
    <>
      <h1 className={pageTitle}>{t('branding.title')}</h1>
      <section className={card} aria-labelledby="branding-heading">
        <h2 id="branding-heading" className={sectionTitle}>
          {t('branding.heading')}
        </h2>
        <p className={`${note} mb-4`}>{t('branding.intro')}</p>
        {saved ? (
          <p role="status" className="mb-4 rounded bg-green-50 p-3 text-green-900" data-testid="branding-saved">
            {t('branding.saved')}
          </p>
        ) : null}
        {refused && REFUSALS.has(refused) ? (
          <p role="alert" className="mb-4 rounded bg-red-50 p-3 text-red-900" data-testid="branding-refused">
            {t(`branding.refusals.${refused}`)}
          </p>
        ) : null}
        <form action={saveBrandingAction} className="grid max-w-xl gap-4">
          <label className="grid gap-1">
            <span className="font-medium">{t('branding.displayName')}</span>
            <input
              name="displayName"
              defaultValue={branding.displayName ?? ''}
              maxLength={MAX_DISPLAY_NAME_CHARS}
              placeholder={merchant.merchantName}
              className="rounded border border-gray-300 px-3 py-2"
            />
            <span className={note}>{t('branding.displayNameHint', { name: merchant.merchantName })}</span>
          </label>
          <label className="grid gap-1">
            <span className="font-medium">{t('branding.logo')}</span>
            <input type="file" name="logo" accept="image/png,image/jpeg,image/webp" />
            <span className={note}>{t('branding.logoHint')}</span>
          </label>
          {branding.hasLogo ? (
            <label className="flex items-center gap-2">
              <input type="checkbox" name="removeLogo" />
              {t('branding.removeLogo')}
            </label>
          ) : null}
          <button type="submit" className="w-fit rounded bg-teal-700 px-4 py-2 font-semibold text-white">
            {t('branding.save')}
          </button>
        </form>
      </section>
    </>
  );
}
