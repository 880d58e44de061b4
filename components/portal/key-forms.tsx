'use client';

import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import type { ActionResult } from './action-result';
import type { StepUpAsk } from '@/lib/accounts/step-up';
import { FormMessage } from './field';
import { StepUpField } from './step-up-field';
import { button, card, formSuccess, mono, note, sectionTitle, warning } from './styles';
import { useHydrated } from './use-hydrated';

export type KeyActions = {
  revealSecretAction: (password: string) => Promise<ActionResult<{ appSecret: string }>>;
  rotateSecretAction: (input: { password: string; confirmed: boolean; overlap: boolean }) => Promise<ActionResult<{ appSecret: string }>>;
  endOverlapAction: (input: { password: string; confirmed: boolean }) => Promise<ActionResult<{ endedAt: string }>>;
};

/** Copies a revealed value to the clipboard and says so for a moment. */
function CopyButton({ text, label, copiedLabel }: { text: string; label: string; copiedLabel: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className={button('secondary')}
      data-testid="copy-app-secret"
      onClick={async () => {
        await navigator.clipboard.writeText(text);
        setCopied(true);
        setTimeout(() => setCopied(false), 2_000);
      }}
    >
      <span aria-live="polite">{copied ? copiedLabel : label}</span>
    </button>
  );
}

/**
 * The AppSecret: revealed after the step-up (`stepUp`: the password, or the authenticator app's code), rotated (by
 * default keeping the old one valid for 24 hours so that a deployment can switch over), and the overlap ended early.
 * `overlapUntil`: until when the previous secret still works.
 */
export function KeyForms({ actions, overlapUntil, stepUp }: { actions: KeyActions; overlapUntil: string | null; stepUp: StepUpAsk }) {
  const { revealSecretAction, rotateSecretAction, endOverlapAction } = actions;
  const t = useTranslations('portal.keys');
  const hydrated = useHydrated();
  const [secret, setSecret] = useState<string>();
  const [rotated, setRotated] = useState(false);
  const [revealError, setRevealError] = useState<{ message?: string; password?: string }>({});
  const [rotateError, setRotateError] = useState<{ message?: string; password?: string; confirmed?: string }>({});
  const [pending, setPending] = useState<'reveal' | 'rotate'>();
  const [overlapEndedAt, setOverlapEndedAt] = useState<string>();

  async function reveal(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setPending('reveal');
    const result = await revealSecretAction(String(new FormData(form).get('password') ?? ''));
    setPending(undefined);
    if (result.ok) {
      setSecret(result.data.appSecret);
      setRotated(false);
      setRevealError({});
      form.reset();
    } else setRevealError({ message: result.message, password: result.fieldErrors?.password });
  }

  async function rotate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setPending('rotate');
    const result = await rotateSecretAction({ password: String(data.get('password') ?? ''), confirmed: data.get('confirmed') === 'on', overlap: data.get('overlap') === 'on' });
    setPending(undefined);
    if (result.ok) {
      setSecret(result.data.appSecret);
      setRotated(true);
      setRotateError({});
      form.reset();
    } else setRotateError({ message: result.message, password: result.fieldErrors?.password, confirmed: result.fieldErrors?.confirmed });
  }

  return (
    <>
      <section className={card} aria-labelledby="secret-heading">
        <h2 id="secret-heading" className={sectionTitle}>AppSecret</h2>
        {secret ? (
          <div aria-live="polite">
            {rotated ? (
              <p className={formSuccess} role="status">
                {t('rotatedNote')}
              </p>
            ) : null}
            <p className={`${mono} m-0 mb-2 rounded-md border border-dashed border-gray-400 bg-gray-50 p-2.5 text-sm`} data-testid="app-secret">
              {secret}
            </p>
            <p className={`${note} mb-3`}>{t('keep')}</p>
            <div className="flex flex-wrap gap-2">
              <CopyButton text={secret} label={t('copy')} copiedLabel={t('copied')} />
              <button type="button" className={button('secondary')} onClick={() => setSecret(undefined)}>
                {t('hide')}
              </button>
            </div>
          </div>
        ) : (
          <form onSubmit={reveal} noValidate aria-busy={pending === 'reveal'}>
            <p className={`${note} mb-3`}>{t('hidden')}</p>
            <FormMessage error={revealError.message} />
            <StepUpField ask={stepUp} passwordLabel={t('password')} fieldId="reveal-password" error={revealError.password} />
            <button type="submit" className={button()} disabled={pending !== undefined || !hydrated}>
              {t('reveal')}
            </button>
          </form>
        )}
      </section>
      <section className={card} aria-labelledby="rotate-heading">
        <h2 id="rotate-heading" className={sectionTitle}>{t('rotateTitle')}</h2>
        <p className={`${warning} mt-0 mb-4`} id="rotate-warning">
          {t('rotateWarning')}
        </p>
        <form onSubmit={rotate} noValidate aria-busy={pending === 'rotate'} aria-describedby="rotate-warning">
          <FormMessage error={rotateError.message} />
          <div className="mb-3 flex items-start gap-2">
            <input id="rotate-overlap" className="mt-0.5 size-4 shrink-0 accent-teal-700" name="overlap" type="checkbox" defaultChecked />
            <label htmlFor="rotate-overlap" className="text-sm">{t('overlap')}</label>
          </div>
          <div className="mb-4 flex items-start gap-2">
            <input id="rotate-confirmed" className="mt-0.5 size-4 shrink-0 accent-teal-700" name="confirmed" type="checkbox" aria-invalid={rotateError.confirmed ? true : undefined} aria-describedby="rotate-warning" />
            <label htmlFor="rotate-confirmed" className="text-sm">{t('understand')}</label>
          </div>
          <StepUpField ask={stepUp} passwordLabel={t('password')} fieldId="rotate-password" error={rotateError.password} />
          <button type="submit" className={button('danger')} disabled={pending !== undefined || !hydrated}>
            {t('rotate')}
          </button>
        </form>
        {overlapUntil && !overlapEndedAt ? <EndOverlapForm overlapUntil={overlapUntil} endOverlapAction={endOverlapAction} onEnded={setOverlapEndedAt} stepUp={stepUp} /> : null}
        {overlapEndedAt ? (
          <p className={`${formSuccess} mt-4`} role="status" data-testid="overlap-ended">
            {t('overlapEnded', { at: new Date(overlapEndedAt) })}
          </p>
        ) : null}
      </section>
    </>
  );
}

/**
 * Ending the overlap early stops every request still signed with the old AppSecret, as a rotation without overlap
 * would: the same confirmation and password before it, and the time it stopped after.
 */
function EndOverlapForm({
  overlapUntil,
  endOverlapAction,
  onEnded,
  stepUp,
}: {
  overlapUntil: string;
  endOverlapAction: KeyActions['endOverlapAction'];
  onEnded: (endedAt: string) => void;
  stepUp: StepUpAsk;
}) {
  const t = useTranslations('portal.keys');
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<{ message?: string; password?: string; confirmed?: string }>({});

  async function end(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setPending(true);
    const result = await endOverlapAction({ password: String(data.get('password') ?? ''), confirmed: data.get('confirmed') === 'on' });
    setPending(false);
    if (result.ok) onEnded(result.data.endedAt);
    else setError({ message: result.message, password: result.fieldErrors?.password, confirmed: result.fieldErrors?.confirmed });
  }

  return (
    <div className="mt-4 rounded-md border border-amber-200 bg-amber-50 p-3" data-testid="secret-overlap">
      <p className="m-0 mb-2 text-sm">{t('overlapActive', { until: new Date(overlapUntil) })}</p>
      {open ? (
        <form onSubmit={end} noValidate aria-busy={pending} aria-label={t('endOverlap')} aria-describedby="end-overlap-warning">
          <p className={`${warning} mt-0 mb-3`} id="end-overlap-warning">
            {t('endOverlapWarning')}
          </p>
          <FormMessage error={error.message} />
          <div className="mb-4 flex items-start gap-2">
            <input id="end-overlap-confirmed" className="mt-0.5 size-4 shrink-0 accent-teal-700" name="confirmed" type="checkbox" aria-invalid={error.confirmed ? true : undefined} aria-describedby="end-overlap-warning" />
            <label htmlFor="end-overlap-confirmed" className="text-sm">{t('understandEndOverlap')}</label>
          </div>
          <StepUpField ask={stepUp} passwordLabel={t('password')} fieldId="end-overlap-password" error={error.password} />
          <div className="flex flex-wrap gap-2">
            <button type="submit" className={button('danger')} disabled={pending || !hydrated}>
              {t('confirmEndOverlapButton')}
            </button>
            <button type="button" className={button('secondary')} disabled={pending} onClick={() => setOpen(false)}>
              {t('cancel')}
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className={button('secondary')} disabled={!hydrated} onClick={() => setOpen(true)}>
          {t('endOverlap')}
        </button>
      )}
    </div>
  );
}
