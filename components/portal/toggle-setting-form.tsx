'use client';

import { useState, type FormEvent, type ReactNode } from 'react';
import { useServerAction } from '@/components/back-office/use-server-action';
import type { ActionResult } from './action-result';
import type { CodeOnlyStepUpAsk } from '@/lib/accounts/step-up';
import { FormMessage } from './field';
import { StepUpField } from './step-up-field';
import { button } from './styles';
import { useHydrated } from './use-hydrated';

/** One setting that is on or off: a checkbox, the step-up where the setting asks it, the save button, and its answer. */
export function ToggleSettingForm({
  name,
  enabled,
  label,
  texts,
  save,
  stepUp = 'nothing',
}: {
  name: string;
  enabled: boolean;
  label: ReactNode;
  texts: { submit: string; savedOn: string; savedOff: string };
  save: (enabled: boolean, stepUpAnswer: string) => Promise<ActionResult<{ enabled: boolean }>>;
  stepUp?: CodeOnlyStepUpAsk;
}) {
  const hydrated = useHydrated();
  const { pending, error, fieldErrors, run } = useServerAction();
  const [saved, setSaved] = useState<string>();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const wanted = form.get(name) === 'on';
    setSaved(undefined);
    const result = await run(() => save(wanted, String(form.get('password') ?? '')));
    if (result.ok) setSaved(result.data.enabled ? texts.savedOn : texts.savedOff);
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={pending}>
      <FormMessage error={error} success={saved} />
      <label className="mb-3 flex items-start gap-2">
        <input type="checkbox" name={name} defaultChecked={enabled} className="mt-1 size-4" />
        <span>{label}</span>
      </label>
      <StepUpField ask={stepUp} fieldId={`${name}-step-up`} error={fieldErrors.password} />
      <button type="submit" className={button()} disabled={pending || !hydrated}>
        {texts.submit}
      </button>
    </form>
  );
}
