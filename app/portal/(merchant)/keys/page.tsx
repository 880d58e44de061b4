import { endOverlapAction, revealSecretAction, rotateSecretAction } from './actions';
import { getDb } from '@/lib/db/client';
import { appSecretOverlapUntil } from '@/lib/portal/interface-keys';
import { stepUpAsk } from '@/lib/accounts/step-up';
import { getTranslations } from 'next-intl/server';
import { KeyForms } from '@/components/portal/key-forms';
import { requireMerchant } from '../../_session/require-merchant';
import { card, mono, note, pageTitle, sectionTitle } from '@/components/portal/styles';

export default async function InterfaceKeysPage() {
  const merchant = await requireMerchant('keys');
  const now = new Date();
  const [t, overlapUntil, stepUp] = await Promise.all([getTranslations('portal.keys'), appSecretOverlapUntil(getDb(), merchant, now), stepUpAsk(getDb(), merchant, now)]);
  return (
    <>
      <h1 className={pageTitle}>{t('title')}</h1>
      <section className={card} aria-labelledby="app-id-heading">
        <h2 id="app-id-heading" className={sectionTitle}>AppID</h2>
        <p className={`${mono} mt-0 mb-2`} data-testid="app-id">
          {merchant.appId}
        </p>
        <p className={note}>
          {t('orderPermission')}{' '}
          <strong className="text-gray-900" data-testid="order-permission">{merchant.orderPermission ? t('enabled') : t('notEnabled')}</strong>
        </p>
      </section>
      <KeyForms actions={{ revealSecretAction, rotateSecretAction, endOverlapAction }} overlapUntil={overlapUntil?.toISOString() ?? null} stepUp={stepUp} />
    </>
  );
}
