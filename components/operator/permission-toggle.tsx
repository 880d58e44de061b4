'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { OperatorActionResult } from './action-result';
import { useHydrated } from '@/components/portal/use-hydrated';
import { FormStatus } from './field';
import { Badge, buttonClass } from './ui';
import { useServerAction } from '@/components/back-office/use-server-action';

/** The merchant's order permission and the switch that flips it, after a confirmation naming the consequence. */
export function PermissionToggle({ appId, name, enabled, setOrderPermissionAction }: { appId: string; name: string; enabled: boolean; setOrderPermissionAction: (appId: string, enabled: boolean) => Promise<OperatorActionResult<{ orderPermission: boolean }>> }) {
  const t = useTranslations('console.permission');
  const hydrated = useHydrated();
  const [confirming, setConfirming] = useState(false);
  const { pending, error, run } = useServerAction();

  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="order-permission">
      <Badge tone={enabled ? 'good' : 'bad'}>{enabled ? t('on') : t('off')}</Badge>
      {confirming ? (
        <span role="group" aria-label={enabled ? t('confirmStopLabel', { name }) : t('confirmAllowLabel', { name })} className="flex flex-wrap items-center gap-2">
          <span className="text-sm text-amber-800">
            {enabled ? t('stopQuestion', { name }) : t('allowQuestion', { name })}
          </span>
          <button
            type="button"
            className={enabled ? buttonClass.danger : buttonClass.primary}
            disabled={pending}
            onClick={async () => {
              const result = await run(() => setOrderPermissionAction(appId, !enabled));
              if (result.ok) setConfirming(false);
            }}
          >
            {enabled ? t('confirmStop') : t('confirmAllow')}
          </button>
          <button type="button" className={buttonClass.secondary} disabled={pending} onClick={() => setConfirming(false)}>
            {t('cancel')}
          </button>
        </span>
      ) : (
        <button type="button" className={buttonClass.secondary} disabled={!hydrated} aria-label={enabled ? t('stopLabel', { name }) : t('allowLabel', { name })} onClick={() => setConfirming(true)}>
          {enabled ? t('stop') : t('allow')}
        </button>
      )}
      <FormStatus error={error} />
    </div>
  );
}
