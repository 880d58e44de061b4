'use client';

import { useTranslations } from 'next-intl';
import type { ActionResult } from './action-result';
import { ToggleSettingForm } from './toggle-setting-form';

/** The opt-in to close and expiry notices: off unless the merchant's notify handler reads `status`. */
export function CloseNoticesForm({ enabled, saveCloseNoticesAction }: { enabled: boolean; saveCloseNoticesAction: (input: { enabled: boolean }) => Promise<ActionResult<{ enabled: boolean }>> }) {
  const t = useTranslations('portal.account.closeNotices');
  return (
    <ToggleSettingForm
      name="closeNotices"
      enabled={enabled}
      label={t.rich('label', { code: (chunks) => <code>{chunks}</code> })}
      texts={{ submit: t('submit'), savedOn: t('savedOn'), savedOff: t('savedOff') }}
      save={(wanted) => saveCloseNoticesAction({ enabled: wanted })}
    />
  );
}
