'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { ActionResult } from './action-result';
import type { StepUpAsk } from '@/lib/accounts/step-up';
import { Field, FormMessage } from './field';
import { StepUpField } from './step-up-field';
import { useRefundOutcome } from './refund-outcome';
import { button, fieldError } from './styles';

interface RefundFormInput {
  amount: string;
  reason: string;
  transactionId: string;
  password: string;
  confirmed: boolean;
}

/**
 * Refunds part of a paid order (amount, reason), or records a refund the merchant sent from its own wallet (`wallet`:
 * amount, transaction id, note). Both ask for a confirmation and the step-up (the password again, or the app's code).
 */
export function RefundForm({
  orderNo,
  wallet,
  leftAmount,
  currency,
  refundOrderAction,
  stepUp,
}: {
  orderNo: string;
  /** What the refund asks before it runs (the password, or the authenticator app's code: StepUpField). */
  stepUp: StepUpAsk;
  wallet: boolean;
  leftAmount: string;
  currency: string;
  refundOrderAction: (orderNo: string, input: RefundFormInput, wallet: boolean) => Promise<ActionResult<{ status: string }>>;
}) {
  const router = useRouter();
  const t = useTranslations('portal.refunds');
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ error?: string; success?: string; fields?: Record<string, string> }>({});
  const announce = useRefundOutcome((success) => setMessage({ success }));
  return (
    <form
      data-testid="refund-form"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const input = {
          amount: String(form.get('amount') ?? ''),
          reason: String(form.get('reason') ?? ''),
          transactionId: String(form.get('transactionId') ?? ''),
          password: String(form.get('password') ?? ''),
          confirmed: form.get('confirmed') === 'on',
        };
        setPending(true);
        announce(undefined);
        const result = await refundOrderAction(orderNo, input, wallet);
        setPending(false);
        if (result.ok) {
          announce(t('done', { status: t(`states.${result.data.status}` as 'states.processing') }));
          event.currentTarget?.reset();
          router.refresh();
        } else setMessage({ error: result.message, fields: result.fieldErrors });
      }}
    >
      <FormMessage error={message.error} success={message.success} />
      <Field label={t('amount', { currency })} name="amount" inputMode="decimal" required hint={t('left', { amount: leftAmount, currency })} error={message.fields?.amount} />
      {wallet ? <Field label={t('transactionId')} name="transactionId" required autoComplete="off" error={message.fields?.transactionId} /> : null}
      <Field label={wallet ? t('note') : t('reason')} name="reason" maxLength={80} error={message.fields?.reason} />
      <StepUpField ask={stepUp} passwordLabel={t('password')} fieldId="refund-password" error={message.fields?.password} />
      <label className="mb-4 flex items-start gap-2 text-sm">
        <input type="checkbox" name="confirmed" className="mt-1" />
        <span>{wallet ? t('confirmRecord') : t('confirm')}</span>
      </label>
      {message.fields?.confirmed ? <p className={fieldError}>{message.fields.confirmed}</p> : null}
      <button type="submit" className={button()} disabled={pending}>
        {wallet ? t('record') : t('submit')}
      </button>
    </form>
  );
}
