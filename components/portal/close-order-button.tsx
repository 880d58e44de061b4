'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { ActionResult } from './action-result';
import { FormMessage } from './field';
import { button, warning } from './styles';
import { useHydrated } from './use-hydrated';

/** Closes a pending order after a confirmation (the payer can no longer pay it); the server checks it is the merchant's. */
export function CloseOrderButton({ orderNo, closeOrderAction }: { orderNo: string; closeOrderAction: (orderNo: string) => Promise<ActionResult<{ status: string }>> }) {
  const router = useRouter();
  const t = useTranslations('portal.order');
  const [pending, setPending] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  // A click before the page's scripts run would be lost: the button waits for them.
  const hydrated = useHydrated();

  async function close() {
    setPending(true);
    setError(undefined);
    const result = await closeOrderAction(orderNo);
    setPending(false);
    setConfirming(false);
    if (result.ok) router.refresh();
    else setError(result.message);
  }

  return (
    <div className="flex flex-wrap items-center gap-2 whitespace-normal">
      <FormMessage error={error} />
      {confirming ? (
        <span role="group" className="flex flex-wrap items-center gap-2" aria-label={t('closeConfirmLabel')}>
          <span className={`${warning} whitespace-normal`}>{t('closeConfirmText')}</span>
          <button type="button" className={button('danger')} disabled={pending} onClick={close}>
            {t('closeConfirm')}
          </button>
          <button type="button" className={button('secondary')} disabled={pending} onClick={() => setConfirming(false)}>
            {t('closeCancel')}
          </button>
        </span>
      ) : (
        <button type="button" className={button('danger')} disabled={pending || !hydrated} onClick={() => setConfirming(true)}>
          {t('close')}
        </button>
      )}
    </div>
  );
}
