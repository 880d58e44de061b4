'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
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
  const router = useRouter();
  const hydrated = useHydrated();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    const result = await saveTimeZoneAction({ timeZone: String(new FormData(event.currentTarget).get('timeZone') ?? '') });
    setPending(false);
    if (!result.ok) {
      setErrors(result.fieldErrors ?? {});
      setMessage({ error: result.message });
      return;
    }
    setErrors({});
    setMessage({ success: t('saved', { zone: result.data.timeZone }) });
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={pending}>
      <FormMessage error={message.error} success={message.success} />
      <SelectField label={t('label')} name="timeZone" defaultValue={current} hint={t('hint')} error={errors.timeZone}>
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
