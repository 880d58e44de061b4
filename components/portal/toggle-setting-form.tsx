'use client';

import { useState, type FormEvent, type ReactNode } from 'react';
import { useServerAction } from '@/components/back-office/use-server-action';
import type { ActionResult } from './action-result';
import { FormMessage } from './field';
import { button } from './styles';
import { useHydrated } from './use-hydrated';

/** One setting that is on or off: a checkbox, its save button, and what the save answers. */
export function ToggleSettingForm({
  name,
  enabled,
  label,
  texts,
  save,
}: {
  name: string;
  enabled: boolean;
  label: ReactNode;
  texts: { submit: string; savedOn: string; savedOff: string };
  save: (enabled: boolean) => Promise<ActionResult<{ enabled: boolean }>>;
}) {
  const hydrated = useHydrated();
  const { pending, error, run } = useServerAction();
  const [saved, setSaved] = useState<string>();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const wanted = new FormData(event.currentTarget).get(name) === 'on';
    setSaved(undefined);
    const result = await run(() => save(wanted));
    if (result.ok) setSaved(result.data.enabled ? texts.savedOn : texts.savedOff);
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={pending}>
      <FormMessage error={error} success={saved} />
      <label className="mb-3 flex items-start gap-2">
        <input type="checkbox" name={name} defaultChecked={enabled} className="mt-1 size-4" />
        <span>{label}</span>
      </label>
      <button type="submit" className={button()} disabled={pending || !hydrated}>
        {texts.submit}
      </button>
    </form>
  );
}
