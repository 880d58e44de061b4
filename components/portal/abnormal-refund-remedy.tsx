'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { ActionResult } from './action-result';
import type { StepUpAsk } from '@/lib/accounts/step-up';
import { Field, FormMessage, SelectField } from './field';
import { StepUpField } from './step-up-field';
import { useRefundOutcome } from './refund-outcome';
import { button } from './styles';

interface AbnormalRemedyInput {
  type: string;
  bankType: string;
  bankAccount: string;
  realName: string;
  password: string;
}

/**
 * WeChat Pay's remedy for an abnormal refund, beside it on the order page: to the payer's bank card (bank code, card
 * number, holder's name) or back to the merchant's own bank account; the step-up asked (StepUpField).
 */
export function AbnormalRefundRemedy({
  orderNo,
  refundNo,
  remedyAction,
  stepUp,
}: {
  orderNo: string;
  refundNo: string;
  stepUp: StepUpAsk;
  remedyAction: (orderNo: string, refundNo: string, input: AbnormalRemedyInput) => Promise<ActionResult<{ status: string }>>;
}) {
  const router = useRouter();
  const t = useTranslations('portal.refunds');
  const [type, setType] = useState('USER_BANK_CARD');
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ error?: string; success?: string; fields?: Record<string, string> }>({});
  const announce = useRefundOutcome((success) => setMessage({ success }));
  const id = (name: string) => `remedy-${refundNo}-${name}`;
  return (
    <form
      data-testid="abnormal-remedy-form"
      className="mt-2 whitespace-normal"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const input = {
          type,
          bankType: String(form.get('bankType') ?? ''),
          bankAccount: String(form.get('bankAccount') ?? ''),
          realName: String(form.get('realName') ?? ''),
          password: String(form.get('password') ?? ''),
        };
        setPending(true);
        announce(undefined);
        const result = await remedyAction(orderNo, refundNo, input);
        setPending(false);
        if (result.ok) {
          announce(t('remedy.done', { status: t(`states.${result.data.status}` as 'states.processing') }));
          router.refresh();
        } else setMessage({ error: result.message, fields: result.fieldErrors });
      }}
    >
      <p className="mb-2 text-sm">{t('remedy.explain')}</p>
      <FormMessage error={message.error} success={message.success} />
      <SelectField label={t('remedy.type')} name="type" fieldId={id('type')} value={type} onChange={(event) => setType(event.target.value)}>
        <option value="USER_BANK_CARD">{t('remedy.userBankCard')}</option>
        <option value="MERCHANT_BANK_CARD">{t('remedy.merchantBankCard')}</option>
      </SelectField>
      {type === 'USER_BANK_CARD' ? (
        <>
          <Field label={t('remedy.bankType')} name="bankType" fieldId={id('bankType')} hint={t('remedy.bankTypeHint')} autoComplete="off" required />
          <Field label={t('remedy.bankAccount')} name="bankAccount" fieldId={id('bankAccount')} inputMode="numeric" autoComplete="off" required />
          <Field label={t('remedy.realName')} name="realName" fieldId={id('realName')} autoComplete="off" required />
        </>
      ) : null}
      <StepUpField ask={stepUp} passwordLabel={t('password')} fieldId={id('password')} error={message.fields?.password} />
      <button type="submit" className={button()} disabled={pending}>
        {t('remedy.submit')}
      </button>
    </form>
  );
}
