'use client';

import { useState } from 'react';
import { setOrderPermissionAction } from '@/app/operator/merchants/actions';
import { useHydrated } from '@/components/portal/use-hydrated';
import { FormStatus } from './field';
import { Badge, buttonClass } from './ui';
import { useOperatorAction } from './use-operator-action';

/** The merchant's order permission and the switch that flips it, after a confirmation naming the consequence. */
export function PermissionToggle({ appId, name, enabled }: { appId: string; name: string; enabled: boolean }) {
  const hydrated = useHydrated();
  const [confirming, setConfirming] = useState(false);
  const { pending, error, run } = useOperatorAction();
  const verb = enabled ? 'Stop orders' : 'Allow orders';

  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="order-permission">
      <Badge tone={enabled ? 'good' : 'bad'}>{enabled ? 'Orders on · 可下单' : 'Orders off · 禁止下单'}</Badge>
      {confirming ? (
        <span role="group" aria-label={`Confirm: ${verb} for ${name}`} className="flex flex-wrap items-center gap-2">
          <span className="text-sm text-amber-800">
            {enabled
              ? `Stop orders for ${name}? The API will answer 1004. · 确认禁止该商户下单？接口将返回 1004。`
              : `Allow orders for ${name}? · 确认允许该商户下单？`}
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
            {enabled ? 'Confirm stop · 确认禁止' : 'Confirm allow · 确认允许'}
          </button>
          <button type="button" className={buttonClass.secondary} disabled={pending} onClick={() => setConfirming(false)}>
            Cancel · 取消
          </button>
        </span>
      ) : (
        <button type="button" className={buttonClass.secondary} disabled={!hydrated} aria-label={`${verb} for ${name} · ${enabled ? '禁止下单' : '允许下单'}`} onClick={() => setConfirming(true)}>
          {enabled ? 'Stop orders · 禁止下单' : 'Allow orders · 允许下单'}
        </button>
      )}
      <FormStatus error={error} />
    </div>
  );
}
