'use client';

import { useId, useState } from 'react';
import { approveCredentialAction, deleteCredentialAction, rejectCredentialAction, setCredentialEnabledAction } from '@/app/operator/credentials/actions';
import { useHydrated } from '@/components/portal/use-hydrated';
import type { ReviewStatus } from '@/lib/credentials/credentials';
import { FormStatus, TextAreaField } from './field';
import { buttonClass } from './ui';
import { useOperatorAction } from './use-operator-action';

/** Review (approve, reject with a reason), enable/disable and delete one credential. */
export function CredentialReviewActions({ id, reviewStatus, enabled }: { id: number; reviewStatus: ReviewStatus; enabled: boolean }) {
  const hydrated = useHydrated();
  const formId = useId();
  const [mode, setMode] = useState<'idle' | 'rejecting' | 'deleting'>('idle');
  const { pending, error, fieldErrors, run } = useOperatorAction();
  const busy = pending || !hydrated;

  return (
    <div className="flex min-w-[14rem] flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {reviewStatus !== 'approved' ? (
          <button type="button" className={buttonClass.primary} disabled={busy} aria-label={`Approve credential ${id} · 通过凭证 ${id}`} onClick={() => run(() => approveCredentialAction(id))}>
            Approve · 通过
          </button>
        ) : null}
        {reviewStatus !== 'rejected' && mode !== 'rejecting' ? (
          <button type="button" className={buttonClass.secondary} disabled={busy} aria-label={`Reject credential ${id} · 驳回凭证 ${id}`} onClick={() => setMode('rejecting')}>
            Reject… · 驳回…
          </button>
        ) : null}
        <button
          type="button"
          className={buttonClass.secondary}
          disabled={busy}
          aria-label={`${enabled ? 'Disable' : 'Enable'} credential ${id} · ${enabled ? '停用' : '启用'}凭证 ${id}`}
          onClick={() => run(() => setCredentialEnabledAction(id, !enabled))}
        >
          {enabled ? 'Disable · 停用' : 'Enable · 启用'}
        </button>
        {mode !== 'deleting' ? (
          <button type="button" className={buttonClass.danger} disabled={busy} aria-label={`Delete credential ${id} · 删除凭证 ${id}`} onClick={() => setMode('deleting')}>
            Delete · 删除
          </button>
        ) : null}
      </div>
      {mode === 'rejecting' ? (
        <form
          aria-label={`Reject credential ${id} · 驳回凭证 ${id}`}
          className="flex flex-col gap-2 rounded-md border border-gray-200 p-2"
          noValidate
          onSubmit={async (event) => {
            event.preventDefault();
            const reason = String(new FormData(event.currentTarget).get('reason') ?? '');
            const result = await run(() => rejectCredentialAction(id, reason));
            if (result.ok) setMode('idle');
          }}
        >
          <TextAreaField id={`${formId}-reason`} name="reason" label="Reason (shown to the merchant) · 驳回原因（商户可见）" required maxLength={500} error={fieldErrors.reason} />
          <div className="flex gap-2">
            <button type="submit" className={buttonClass.danger} disabled={busy}>
              Confirm reject · 确认驳回
            </button>
            <button type="button" className={buttonClass.secondary} disabled={pending} onClick={() => setMode('idle')}>
              Cancel · 取消
            </button>
          </div>
        </form>
      ) : null}
      {mode === 'deleting' ? (
        <span role="group" aria-label={`Confirm deleting credential ${id} · 确认删除凭证 ${id}`} className="flex flex-wrap items-center gap-2">
          <span className="text-sm text-amber-800">Delete credential {id}? Orders can no longer use it. · 删除后订单将无法使用。</span>
          <button
            type="button"
            className={buttonClass.danger}
            disabled={busy}
            onClick={async () => {
              const result = await run(() => deleteCredentialAction(id));
              if (result.ok) setMode('idle');
            }}
          >
            Confirm delete · 确认删除
          </button>
          <button type="button" className={buttonClass.secondary} disabled={pending} onClick={() => setMode('idle')}>
            Cancel · 取消
          </button>
        </span>
      ) : null}
      <FormStatus error={fieldErrors.reason ? undefined : error} />
    </div>
  );
}
