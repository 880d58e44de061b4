'use client';

import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import { useServerAction } from '@/components/back-office/use-server-action';
import type { ActionResult } from './action-result';
import { FormMessage } from './field';
import { button } from './styles';
import { useHydrated } from './use-hydrated';

/** The opt-in to close and expiry notices: off unless the merchant's notify handler reads `status`. */
export function CloseNoticesForm({ enabled, saveCloseNoticesAction }: { enabled: boolean; saveCloseNoticesAction: (input: { enabled: boolean }) => Promise<ActionResult<{ enabled: boolean }>> }) {
  const t = useTranslations('portal.account.closeNotices');
  const hydrated = useHydrated();
  const { pending, error, run } = useServerAction();
  const [saved, setSaved] = useState<string>();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const wanted = new FormData(event.currentTarget).get('closeNotices') === 'on';
    setSaved(undefined);
    const result = await run(() => saveCloseNoticesAction({ enabled: wanted }));
    if (result.ok) setSaved(result.data.enabled ? t('savedOn') : t('savedOff'));
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={pending}>
      <FormMessage error={error} success={saved} />
      <label className="mb-3 flex items-start gap-2">
        <input type="checkbox" name="closeNotices" defaultChecked={enabled} className="mt-1 size-4" />
        <span>{t.rich('label', { code: (chunks) => <code>{chunks}</code> })}</span>
      </label>
      <button type="submit" className={button()} disabled={pending || !hydrated}>
        {t('submit')}
      </button>
    </form>
  );
}
