'use client';

import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import type { ActionResult } from './action-result';
import { Field, FormMessage } from './field';
import { button, card, formSuccess, mono, note, sectionTitle, warning } from './styles';
import { useHydrated } from './use-hydrated';

export type KeyActions = {
  revealSecretAction: (password: string) => Promise<ActionResult<{ appSecret: string }>>;
  rotateSecretAction: (input: { password: string; confirmed: boolean }) => Promise<ActionResult<{ appSecret: string }>>;
};

export function KeyForms({ actions }: { actions: KeyActions }) {
  const { revealSecretAction, rotateSecretAction } = actions;
  const t = useTranslations('portal.keys');
  const hydrated = useHydrated();
  const [secret, setSecret] = useState<string>();
  const [rotated, setRotated] = useState(false);
  const [revealError, setRevealError] = useState<{ message?: string; password?: string }>({});
  const [rotateError, setRotateError] = useState<{ message?: string; password?: string; confirmed?: string }>({});
  const [pending, setPending] = useState<'reveal' | 'rotate'>();

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
    const result = await rotateSecretAction({ password: String(data.get('password') ?? ''), confirmed: data.get('confirmed') === 'on' });
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
            <button type="button" className={button('secondary')} onClick={() => setSecret(undefined)}>
              {t('hide')}
            </button>
          </div>
        ) : (
          <form onSubmit={reveal} noValidate aria-busy={pending === 'reveal'}>
            <p className={`${note} mb-3`}>{t('hidden')}</p>
            <FormMessage error={revealError.message} />
            <Field label={t('password')} name="password" fieldId="reveal-password" type="password" autoComplete="current-password" required error={revealError.password} />
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
          <div className="mb-4 flex items-start gap-2">
            <input id="rotate-confirmed" className="mt-0.5 size-4 shrink-0 accent-teal-700" name="confirmed" type="checkbox" aria-invalid={rotateError.confirmed ? true : undefined} aria-describedby="rotate-warning" />
            <label htmlFor="rotate-confirmed" className="text-sm">{t('understand')}</label>
          </div>
          <Field label={t('password')} name="password" fieldId="rotate-password" type="password" autoComplete="current-password" required error={rotateError.password} />
          <button type="submit" className={button('danger')} disabled={pending !== undefined || !hydrated}>
            {t('rotate')}
          </button>
        </form>
      </section>
    </>
  );
}
