'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { ActionResult } from './action-result';
import { FormMessage } from './field';
import { button, warning } from './styles';
import { useHydrated } from './use-hydrated';

/** Enable/disable and delete (after a confirmation) one credential; the server checks it is the merchant's. */
export type CredentialActionSet = {
  setCredentialEnabledAction: (credentialId: number, enabled: boolean) => Promise<ActionResult<{ enabled: boolean }>>;
  deleteCredentialAction: (credentialId: number) => Promise<ActionResult>;
};

export function CredentialActions({ id, enabled, actions }: { id: number; enabled: boolean; actions: CredentialActionSet }) {
  const { setCredentialEnabledAction, deleteCredentialAction } = actions;
  const router = useRouter();
  const t = useTranslations('portal.credentials');
  const [pending, setPending] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  // A click before the page's scripts run would be lost: the buttons wait for them.
  const hydrated = useHydrated();
  const busy = pending || !hydrated;

  async function run(action: () => Promise<{ ok: true } | { ok: false; message: string }>) {
    setPending(true);
    setError(undefined);
    const result = await action();
    setPending(false);
    if (result.ok) {
      setConfirming(false);
      router.refresh();
    } else setError(result.message);
  }

  return (
    <div className="flex flex-wrap items-center gap-2 whitespace-normal">
      <FormMessage error={error} />
      <button
        type="button"
        className={button('secondary')}
        disabled={busy}
        aria-label={enabled ? t('disableLabel', { id }) : t('enableLabel', { id })}
        onClick={() => run(() => setCredentialEnabledAction(id, !enabled))}
      >
        {enabled ? t('disable') : t('enable')}
      </button>
      {confirming ? (
        <span role="group" className="flex flex-wrap items-center gap-2" aria-label={t('confirmLabel', { id })}>
          <span className={`${warning} whitespace-normal`}>{t('confirmText', { id })}</span>
          <button type="button" className={button('danger')} disabled={busy} onClick={() => run(() => deleteCredentialAction(id))}>
            {t('confirmDelete')}
          </button>
          <button type="button" className={button('secondary')} disabled={busy} onClick={() => setConfirming(false)}>
            {t('cancel')}
          </button>
        </span>
      ) : (
        <button type="button" className={button('danger')} disabled={busy} aria-label={t('deleteLabel', { id })} onClick={() => setConfirming(true)}>
          {t('delete')}
        </button>
      )}
    </div>
  );
}
