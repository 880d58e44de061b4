'use client';

import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import type { OperatorActionResult } from './action-result';
import { useHydrated } from '@/components/portal/use-hydrated';
import type { AttentionKind } from '@/lib/operator/attention';
import { FormStatus, TextAreaField, TextField } from './field';
import { buttonClass } from './ui';
import { useServerAction } from '@/components/back-office/use-server-action';

/**
 * What an operator does with one attention item: complete its order by hand with a reason (transfers and callbacks
 * linked to an unpaid order), resend (notifications), or dismiss it with a note.
 */
export type AttentionActions = {
  dismissAttentionAction: (input: { kind: AttentionKind; itemId: number; note: string }) => Promise<OperatorActionResult<{ auditId: number }>>;
  completeOrderAction: (input: { kind: AttentionKind; itemId: number; reason: string }) => Promise<OperatorActionResult<{ orderNo: string }>>;
  resendNotificationAction: (notificationId: number) => Promise<OperatorActionResult<{ cycle: number }>>;
  assignTransferAction: (input: { itemId: number; orderNo: string; reason: string }) => Promise<OperatorActionResult<{ orderNo: string }>>;
};

export function AttentionItemActions({
  kind,
  itemId,
  label,
  canComplete,
  canAssign = false,
  orderNo,
  completionWarning,
  actions,
}: {
  kind: AttentionKind;
  itemId: number;
  label: string;
  canComplete: boolean;
  /** An unmatched transfer: the operator may name the order it pays. */
  canAssign?: boolean;
  orderNo?: string;
  /** What completing it by hand would forgive (a short transfer's missing amount), shown before it is confirmed. */
  completionWarning?: string;
  actions: AttentionActions;
}) {
  const { dismissAttentionAction, completeOrderAction, resendNotificationAction, assignTransferAction } = actions;
  const t = useTranslations('console.attention');
  const hydrated = useHydrated();
  const formId = useId();
  const [mode, setMode] = useState<'idle' | 'dismissing' | 'completing' | 'assigning'>('idle');
  const { pending, error, fieldErrors, run } = useServerAction();
  const busy = pending || !hydrated;

  return (
    <div className="flex min-w-[13rem] flex-col gap-2">
      {mode === 'idle' ? (
        <div className="flex flex-wrap gap-2">
          {kind === 'notification' ? (
            <button type="button" className={buttonClass.primary} disabled={busy} aria-label={t('resendLabel', { label })} onClick={() => run(() => resendNotificationAction(itemId))}>
              {t('resend')}
            </button>
          ) : null}
          {canComplete ? (
            <button type="button" className={buttonClass.primary} disabled={busy} aria-label={t('completeLabel', { orderNo: orderNo ?? '' })} onClick={() => setMode('completing')}>
              {t('complete')}
            </button>
          ) : null}
          {canAssign ? (
            <button type="button" className={buttonClass.primary} disabled={busy} aria-label={t('assignLabel', { label })} onClick={() => setMode('assigning')}>
              {t('assign')}
            </button>
          ) : null}
          <button type="button" className={buttonClass.secondary} disabled={busy} aria-label={t('dismissLabel', { label })} onClick={() => setMode('dismissing')}>
            {t('dismiss')}
          </button>
        </div>
      ) : (
        <form
          aria-label={mode === 'dismissing' ? t('dismissLabel', { label }) : mode === 'assigning' ? t('assignLabel', { label }) : t('completeLabel', { orderNo: orderNo ?? '' })}
          className="flex flex-col gap-2 rounded-md border border-gray-200 p-2"
          noValidate
          onSubmit={async (event) => {
            event.preventDefault();
            const fields = new FormData(event.currentTarget);
            const text = String(fields.get('text') ?? '');
            const result =
              mode === 'dismissing'
                ? await run(() => dismissAttentionAction({ kind, itemId, note: text }))
                : mode === 'assigning'
                  ? await run(() => assignTransferAction({ itemId, orderNo: String(fields.get('orderNo') ?? ''), reason: text }))
                  : await run(() => completeOrderAction({ kind, itemId, reason: text }));
            if (result.ok) setMode('idle');
          }}
        >
          {mode === 'completing' && completionWarning ? (
            <p className="m-0 rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900" role="alert" data-testid="completion-warning">
              {completionWarning}
            </p>
          ) : null}
          {mode === 'assigning' ? (
            <TextField id={`${formId}-order`} name="orderNo" label={t('assignOrderNo')} hint={t('assignOrderNoHint')} required autoComplete="off" spellCheck={false} error={fieldErrors.orderNo} />
          ) : null}
          {mode === 'dismissing' ? (
            <TextAreaField id={`${formId}-note`} name="text" label={t('note')} required maxLength={500} error={fieldErrors.note} />
          ) : (
            <TextAreaField
              id={`${formId}-reason`}
              name="text"
              label={t('reason')}
              hint={t('reasonHint')}
              required
              maxLength={500}
              error={fieldErrors.reason}
            />
          )}
          <div className="flex flex-wrap gap-2">
            <button type="submit" className={mode === 'dismissing' ? buttonClass.secondary : buttonClass.primary} disabled={busy}>
              {mode === 'dismissing' ? t('confirmDismiss') : mode === 'assigning' ? t('confirmAssign') : t('confirmComplete')}
            </button>
            <button type="button" className={buttonClass.secondary} disabled={pending} onClick={() => setMode('idle')}>
              {t('cancel')}
            </button>
          </div>
        </form>
      )}
      <FormStatus error={fieldErrors.note || fieldErrors.reason || fieldErrors.orderNo ? undefined : error} />
    </div>
  );
}
