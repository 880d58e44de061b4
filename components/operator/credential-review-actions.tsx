'use client';

import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import type { OperatorActionResult } from './action-result';
import { useHydrated } from '@/components/portal/use-hydrated';
import type { ReviewStatus } from '@/lib/credentials/credentials';
import { FormStatus, TextAreaField } from './field';
import { buttonClass } from './ui';
import { useServerAction } from '@/components/back-office/use-server-action';

/** Review (approve, reject with a reason), enable/disable and delete one credential. */
type Done = Promise<OperatorActionResult<{ id: number }>>;
export type CredentialReviewActionSet = {
  approveCredentialAction: (credentialId: number) => Done;
  rejectCredentialAction: (credentialId: number, reason: string) => Done;
  setCredentialEnabledAction: (credentialId: number, enabled: boolean) => Done;
  deleteCredentialAction: (credentialId: number) => Done;
};

export function CredentialReviewActions({ id, reviewStatus, enabled, actions }: { id: number; reviewStatus: ReviewStatus; enabled: boolean; actions: CredentialReviewActionSet }) {
  const { approveCredentialAction, rejectCredentialAction, setCredentialEnabledAction, deleteCredentialAction } = actions;
  const t = useTranslations('console.review');
  const hydrated = useHydrated();
  const formId = useId();
  const [mode, setMode] = useState<'idle' | 'rejecting' | 'deleting'>('idle');
  const { pending, error, fieldErrors, run } = useServerAction();
  const busy = pending || !hydrated;

  return (
    <div className="flex min-w-[14rem] flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {reviewStatus !== 'approved' ? (
          <button type="button" className={buttonClass.primary} disabled={busy} aria-label={t('approveLabel', { id })} onClick={() => run(() => approveCredentialAction(id))}>
            {t('approve')}
          </button>
        ) : null}
        {reviewStatus !== 'rejected' && mode !== 'rejecting' ? (
          <button type="button" className={buttonClass.secondary} disabled={busy} aria-label={t('rejectLabel', { id })} onClick={() => setMode('rejecting')}>
            {t('reject')}
          </button>
        ) : null}
        <button
          type="button"
          className={buttonClass.secondary}
          disabled={busy}
          aria-label={enabled ? t('disableLabel', { id }) : t('enableLabel', { id })}
          onClick={() => run(() => setCredentialEnabledAction(id, !enabled))}
        >
          {enabled ? t('disable') : t('enable')}
        </button>
        {mode !== 'deleting' ? (
          <button type="button" className={buttonClass.danger} disabled={busy} aria-label={t('deleteLabel', { id })} onClick={() => setMode('deleting')}>
            {t('delete')}
          </button>
        ) : null}
      </div>
      {mode === 'rejecting' ? (
        <form
          aria-label={t('rejectLabel', { id })}
          className="flex flex-col gap-2 rounded-md border border-gray-200 p-2"
          noValidate
          onSubmit={async (event) => {
            event.preventDefault();
            const reason = String(new FormData(event.currentTarget).get('reason') ?? '');
            const result = await run(() => rejectCredentialAction(id, reason));
            if (result.ok) setMode('idle');
          }}
        >
          <TextAreaField id={`${formId}-reason`} name="reason" label={t('reason')} required maxLength={500} error={fieldErrors.reason} />
          <div className="flex gap-2">
            <button type="submit" className={buttonClass.danger} disabled={busy}>
              {t('confirmReject')}
            </button>
            <button type="button" className={buttonClass.secondary} disabled={pending} onClick={() => setMode('idle')}>
              {t('cancel')}
            </button>
          </div>
        </form>
      ) : null}
      {mode === 'deleting' ? (
        <span role="group" aria-label={t('confirmDeleteLabel', { id })} className="flex flex-wrap items-center gap-2">
          <span className="text-sm text-amber-800">{t('confirmDeleteText', { id })}</span>
          <button
            type="button"
            className={buttonClass.danger}
            disabled={busy}
            onClick={async () => {
              const result = await run(() => deleteCredentialAction(id));
              if (result.ok) setMode('idle');
            }}
          >
            {t('confirmDelete')}
          </button>
          <button type="button" className={buttonClass.secondary} disabled={pending} onClick={() => setMode('idle')}>
            {t('cancel')}
          </button>
        </span>
      ) : null}
      <FormStatus error={fieldErrors.reason ? undefined : error} />
    </div>
  );
}
