'use client';

import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import { useServerAction } from '@/components/back-office/use-server-action';
import type { ActionResult } from './action-result';
import { FormMessage, SelectField } from './field';
import { button } from './styles';
import { useHydrated } from './use-hydrated';

/** Picks the zone the back office shows times in; once saved, the page is read again so every time follows it. */
export function TimeZoneForm({
  current,
  choices,
  saveTimeZoneAction,
}: {
  current: string;
  choices: { value: string; label: string }[];
  saveTimeZoneAction: (input: { timeZone: string }) => Promise<ActionResult<{ timeZone: string }>>;
}) {
  const t = useTranslations('portal.account.timeZone');
  const hydrated = useHydrated();
  const { pending, error, fieldErrors, run } = useServerAction();
  const [saved, setSaved] = useState<string>();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const timeZone = String(new FormData(event.currentTarget).get('timeZone') ?? '');
    setSaved(undefined);
    const result = await run(() => saveTimeZoneAction({ timeZone }));
    if (result.ok) setSaved(t('saved', { zone: result.data.timeZone }));
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={pending}>
      <FormMessage error={error} success={saved} />
      <SelectField label={t('label')} name="timeZone" defaultValue={current} hint={t('hint')} error={fieldErrors.timeZone}>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </SelectField>
      <button type="submit" className={button()} disabled={pending || !hydrated}>
        {t('submit')}
      </button>
    </form>
  );
}
