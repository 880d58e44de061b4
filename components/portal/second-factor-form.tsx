'use client';

import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import type { ActionResult } from './action-result';
import type { StepUpAsk } from '@/lib/accounts/step-up';
import { Field, FormMessage } from './field';
import { RecoveryCodes } from './recovery-codes';
import { StepUpField } from './step-up-field';
import { LocalTime } from '@/components/i18n/local-time';
import { button, mono, note, warning } from './styles';
import { useHydrated } from './use-hydrated';

interface SecondFactorActions {
  startSecondFactorAction: () => Promise<ActionResult<{ secret: string; qrCode: string }>>;
  confirmSecondFactorAction: (input: { code: string }) => Promise<ActionResult<{ recoveryCodes: string[] }>>;
  removeSecondFactorAction: (input: { password: string }) => Promise<ActionResult<{ removed: true }>>;
}

/** The secret written in groups of four, as authenticator apps ask for it when typed. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/**
 * Setting up an authenticator app (scan or type the secret, confirm with its code, keep the recovery codes shown this
 * once) and removing it (the step-up asked: StepUpField).
 */
export function SecondFactorForm({
  enrolled,
  recoveryCodesLeft,
  resetByOperator,
  actions,
  stepUp,
}: {
  enrolled: boolean;
  recoveryCodesLeft: number;
  /** An operator's reset of a lost factor, not answered by a new set-up yet: the owner is told. */
  resetByOperator?: { at: Date; reason: string };
  actions: SecondFactorActions;
  /** What removing the app asks first: its code, unless this session answered it in the last 10 minutes. */
  stepUp: StepUpAsk;
}) {
  const t = useTranslations('portal.account.secondFactor');
  const hydrated = useHydrated();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [enrolment, setEnrolment] = useState<{ secret: string; qrCode: string }>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  const [removed, setRemoved] = useState(false);

  async function run<T>(action: () => Promise<ActionResult<T>>, done: (data: T) => void) {
    setPending(true);
    const result = await action();
    setPending(false);
    setErrors(result.ok ? {} : (result.fieldErrors ?? {}));
    setMessage(result.ok ? {} : { error: result.message });
    if (result.ok) done(result.data);
  }

  function onConfirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code') ?? '').trim();
    if (!code) {
      setErrors({ code: t('codeMissing') });
      setMessage({ error: t('codeMissing') });
      return;
    }
    void run(() => actions.confirmSecondFactorAction({ code }), (data) => {
      setRecoveryCodes(data.recoveryCodes);
      setEnrolment(undefined);
    });
  }

  function onRemove(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    void run(() => actions.removeSecondFactorAction({ password }), () => {
      setRemoved(true);
      // The other sessions ended, this one too: sign in again, with the password alone now.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load: the session has ended
      window.location.assign('/portal/sign-in');
    });
  }

  if (recoveryCodes) return <RecoveryCodes codes={recoveryCodes} success={t('enrolled')} />;
  if (enrolled && !removed) {
    return (
      <form onSubmit={onRemove} noValidate aria-busy={pending} aria-label={t('removeTitle')}>
        <FormMessage error={message.error} />
        <p className={`${note} mb-3`} data-testid="second-factor-state">{t('active', { left: recoveryCodesLeft })}</p>
        <StepUpField ask={stepUp} passwordLabel={t('password')} fieldId="second-factor-password" error={errors.password} />
        <button type="submit" className={button('danger')} disabled={pending || !hydrated}>
          {t('remove')}
        </button>
      </form>
    );
  }
  if (enrolment) {
    return (
      <form onSubmit={onConfirm} noValidate aria-busy={pending} aria-label={t('confirmTitle')}>
        <FormMessage error={message.error} />
        <p className={`${note} mb-3`}>{t('scan')}</p>
        {/* eslint-disable-next-line @next/next/no-img-element -- a data URL made on the server: nothing to optimise */}
        <img src={enrolment.qrCode} alt={t('qrAlt')} width={200} height={200} className="mb-3 block" />
        <p className={`${note} mb-1`}>{t('typeInstead')}</p>
        <p className={`${mono} mt-0 mb-4 text-base`} data-testid="totp-secret" translate="no">
          {grouped(enrolment.secret)}
        </p>
        <Field label={t('code')} hint={t('codeHint')} name="code" type="text" inputMode="numeric" autoComplete="one-time-code" required error={errors.code} />
        <button type="submit" className={button()} disabled={pending || !hydrated}>
          {t('confirm')}
        </button>
      </form>
    );
  }
  return (
    <div>
      <FormMessage error={message.error} />
      {resetByOperator ? (
        <p className={`${warning} mt-0 mb-3`} role="status" data-testid="second-factor-reset">
          {t.rich('resetByOperator', { reason: resetByOperator.reason, time: () => <LocalTime value={resetByOperator.at} /> })}
        </p>
      ) : null}
      <p className={`${note} mb-3`}>{t('intro')}</p>
      <button type="button" className={button()} disabled={pending || !hydrated} onClick={() => void run(actions.startSecondFactorAction, setEnrolment)}>
        {t('start')}
      </button>
    </div>
  );
}
