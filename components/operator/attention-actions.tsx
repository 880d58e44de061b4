'use client';

import { useId, useState } from 'react';
import { completeOrderAction, dismissAttentionAction, resendNotificationAction } from '@/app/operator/attention/actions';
import { useHydrated } from '@/components/portal/use-hydrated';
import type { AttentionKind } from '@/lib/operator/attention';
import { FormStatus, TextAreaField } from './field';
import { buttonClass } from './ui';
import { useOperatorAction } from './use-operator-action';

/**
 * What an operator does with one attention item: complete its order by hand with a reason (transfers and callbacks
 * linked to an unpaid order), resend (notifications), or dismiss it with a note.
 */
export function AttentionItemActions({ kind, itemId, label, canComplete, orderNo }: { kind: AttentionKind; itemId: number; label: string; canComplete: boolean; orderNo?: string }) {
  const hydrated = useHydrated();
  const formId = useId();
  const [mode, setMode] = useState<'idle' | 'dismissing' | 'completing'>('idle');
  const { pending, error, fieldErrors, run } = useOperatorAction();
  const busy = pending || !hydrated;

  return (
    <div className="flex min-w-[13rem] flex-col gap-2">
      {mode === 'idle' ? (
        <div className="flex flex-wrap gap-2">
          {kind === 'notification' ? (
            <button type="button" className={buttonClass.primary} disabled={busy} aria-label={`Resend ${label} · 重新发送`} onClick={() => run(() => resendNotificationAction(itemId))}>
              Resend · 重新发送
            </button>
          ) : null}
          {canComplete ? (
            <button type="button" className={buttonClass.primary} disabled={busy} aria-label={`Complete order ${orderNo} by hand · 人工完成订单`} onClick={() => setMode('completing')}>
              Complete order… · 人工完成…
            </button>
          ) : null}
          <button type="button" className={buttonClass.secondary} disabled={busy} aria-label={`Dismiss ${label} · 忽略`} onClick={() => setMode('dismissing')}>
            Dismiss… · 忽略…
          </button>
        </div>
      ) : (
        <form
          aria-label={mode === 'dismissing' ? `Dismiss ${label} · 忽略` : `Complete order ${orderNo} by hand · 人工完成订单`}
          className="flex flex-col gap-2 rounded-md border border-gray-200 p-2"
          noValidate
          onSubmit={async (event) => {
            event.preventDefault();
            const text = String(new FormData(event.currentTarget).get('text') ?? '');
            const result =
              mode === 'dismissing'
                ? await run(() => dismissAttentionAction({ kind, itemId, note: text }))
                : await run(() => completeOrderAction({ kind, itemId, reason: text }));
            if (result.ok) setMode('idle');
          }}
        >
          {mode === 'dismissing' ? (
            <TextAreaField id={`${formId}-note`} name="text" label="Note (kept in the audit log) · 备注（记入审计日志）" required maxLength={500} error={fieldErrors.note} />
          ) : (
            <TextAreaField
              id={`${formId}-reason`}
              name="text"
              label="Reason (kept in the audit log) · 原因（记入审计日志）"
              hint="The order is marked paid and the merchant notified. · 订单将标记为已支付并通知商户。"
              required
              maxLength={500}
              error={fieldErrors.reason}
            />
          )}
          <div className="flex flex-wrap gap-2">
            <button type="submit" className={mode === 'dismissing' ? buttonClass.secondary : buttonClass.primary} disabled={busy}>
              {mode === 'dismissing' ? 'Confirm dismiss · 确认忽略' : 'Confirm complete · 确认完成'}
            </button>
            <button type="button" className={buttonClass.secondary} disabled={pending} onClick={() => setMode('idle')}>
              Cancel · 取消
            </button>
          </div>
        </form>
      )}
      <FormStatus error={fieldErrors.note || fieldErrors.reason ? undefined : error} />
    </div>
  );
}
