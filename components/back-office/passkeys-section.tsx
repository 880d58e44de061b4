'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import { LocalTime } from '@/components/i18n/local-time';
import type { ActionResult } from '@/components/portal/action-result';
import { Field, FormMessage } from '@/components/portal/field';
import { RecoveryCodes } from '@/components/portal/recovery-codes';
import { StepUpField } from '@/components/portal/step-up-field';
import { button, note } from '@/components/portal/styles';
import { useHydrated } from '@/components/portal/use-hydrated';
import type { StepUpAsk } from '@/lib/accounts/step-up';
import { ceremonyFailureOf, newPasskey } from './passkey-ceremony';

export interface PasskeyRow {
  id: number;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  backedUp: boolean;
}

export interface PasskeyActions {
  addPasskeyAction: (input: { challengeId: string; response: unknown; name: string; password: string }) => Promise<ActionResult<{ recoveryCodes?: string[] }>>;
  removePasskeyAction: (input: { passkeyId: number; password: string }) => Promise<ActionResult<{ endedSessions: number }>>;
}

/**
 * The account's passkeys (portal and console account pages): each with when it was added and last used, removed
 * after the step-up; a new one named, then made by the browser (navigator.credentials.create) and added after the
 * step-up. The first second factor of an account comes with its recovery codes, shown this once.
 */
export function PasskeysSection({ passkeys, recoveryCodesLeft, stepUp, actions }: { passkeys: PasskeyRow[]; recoveryCodesLeft?: number; stepUp: StepUpAsk; actions: PasskeyActions }) {
  const t = useTranslations('portal.passkeys');
  const router = useRouter();
  const hydrated = useHydrated();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [removing, setRemoving] = useState<number>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();

  function failed(result: { message: string; fieldErrors?: Record<string, string> }) {
    setErrors(result.fieldErrors ?? {});
    setMessage({ error: result.fieldErrors?.passkey ?? result.message });
  }

  async function onAdd(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const name = String(data.get('name') ?? '').trim();
    const password = String(data.get('password') ?? '');
    setMessage({});
    setErrors({});
    setPending(true);
    try {
      const made = await newPasskey();
      const result = await actions.addPasskeyAction({ challengeId: made.challengeId, response: made.response, name, password });
      if (!result.ok) return failed(result);
      if (result.data.recoveryCodes) setRecoveryCodes(result.data.recoveryCodes);
      setMessage({ success: t('addedMessage') });
      router.refresh();
    } catch (error) {
      // The failure's name is its message's key (portal.passkeys).
      setMessage({ error: t(ceremonyFailureOf(error)) });
    } finally {
      setPending(false);
    }
  }

  async function onRemove(event: FormEvent<HTMLFormElement>, passkeyId: number) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    setPending(true);
    const result = await actions.removePasskeyAction({ passkeyId, password });
    setPending(false);
    if (!result.ok) return failed(result);
    setRemoving(undefined);
    setErrors({});
    setMessage({ success: t('removed') });
    router.refresh();
  }

  if (recoveryCodes) return <RecoveryCodes codes={recoveryCodes} success={t('addedMessage')} />;
  return (
    <div data-testid="passkeys">
      <FormMessage error={message.error} success={message.success} />
      <p className={`${note} mb-3`}>{t('intro')}</p>
      {passkeys.length === 0 ? (
        <p className={`${note} mb-4`} data-testid="no-passkeys">{t('none')}</p>
      ) : (
        <ul className="m-0 mb-4 list-none p-0" aria-label={t('listLabel')}>
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="mb-3 border-b border-gray-200 pb-3" data-testid="passkey">
              <p className="m-0 font-semibold">{passkey.name}</p>
              <p className={note}>
                {t.rich('added', { time: () => <LocalTime value={passkey.createdAt} /> })}
                {' · '}
                {passkey.lastUsedAt ? t.rich('lastUsed', { time: () => <LocalTime value={passkey.lastUsedAt} /> }) : t('neverUsed')}
                {passkey.backedUp ? ` · ${t('synced')}` : null}
              </p>
              {removing === passkey.id ? (
                <form onSubmit={(event) => void onRemove(event, passkey.id)} noValidate aria-busy={pending} aria-label={t('remove', { name: passkey.name })} className="mt-2">
                  <StepUpField ask={stepUp} passwordLabel={t('password')} fieldId={`passkey-${passkey.id}-password`} error={errors.password} />
                  <button type="submit" className={button('danger', 'sm')} disabled={pending || !hydrated}>
                    {t('remove', { name: passkey.name })}
                  </button>
                </form>
              ) : (
                <button type="button" className={`${button('secondary', 'sm')} mt-2`} disabled={pending || !hydrated} onClick={() => setRemoving(passkey.id)}>
                  {t('remove', { name: passkey.name })}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {recoveryCodesLeft !== undefined && passkeys.length > 0 ? <p className={`${note} mb-3`}>{t('recoveryCodesLeft', { left: recoveryCodesLeft })}</p> : null}
      <form onSubmit={(event) => void onAdd(event)} noValidate aria-busy={pending} aria-label={t('add')}>
        <Field label={t('name')} hint={t('nameHint')} name="name" fieldId="passkey-name" maxLength={60} required error={errors.name} />
        <StepUpField ask={stepUp} passwordLabel={t('password')} fieldId="passkey-password" error={errors.password} />
        <button type="submit" className={button()} disabled={pending || !hydrated} data-testid="add-passkey">
          {t('add')}
        </button>
      </form>
    </div>
  );
}
