'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { ActionResult } from './action-result';
import type { StepUpAsk } from '@/lib/accounts/step-up';
import { FormMessage } from './field';
import { StepUpField } from './step-up-field';
import { useRefundOutcome } from './refund-outcome';
import { button } from './styles';

/** Refunds, in full and in one action, a payment that arrived after the order was closed; the step-up first. */
export function LatePaymentRefund({
  orderNo,
  refundAction,
  stepUp,
}: {
  orderNo: string;
  refundAction: (orderNo: string, password: string) => Promise<ActionResult<{ status: string }>>;
  stepUp: StepUpAsk;
}) {
  const router = useRouter();
  const t = useTranslations('portal.refunds');
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ error?: string; success?: string; password?: string }>({});
  const announce = useRefundOutcome((success) => setMessage({ success }));
  return (
    <form
      data-testid="late-payment-refund-form"
      onSubmit={async (event) => {
        event.preventDefault();
        const password = String(new FormData(event.currentTarget).get('password') ?? '');
        setPending(true);
        announce(undefined);
        const result = await refundAction(orderNo, password);
        setPending(false);
        if (result.ok) {
          announce(t('done', { status: t(`states.${result.data.status}` as 'states.processing') }));
          router.refresh();
        } else setMessage({ error: result.message, password: result.fieldErrors?.password });
      }}
    >
      <FormMessage error={message.error} success={message.success} />
      <StepUpField ask={stepUp} passwordLabel={t('password')} fieldId="late-payment-password" error={message.password} />
      <button type="submit" className={button()} disabled={pending}>
        {t('latePayment.refund')}
      </button>
    </form>
  );
}
