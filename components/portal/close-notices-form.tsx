'use client';

import { useTranslations } from 'next-intl';
import type { CodeOnlyStepUpAsk } from '@/lib/accounts/step-up';
import type { ActionResult } from './action-result';
import { ToggleSettingForm } from './toggle-setting-form';

/** The opt-in to close and expiry notices (off unless the merchant's handler reads `status`), after the step-up. */
export function CloseNoticesForm({
  enabled,
  saveCloseNoticesAction,
  stepUp,
}: {
  enabled: boolean;
  saveCloseNoticesAction: (input: { enabled: boolean; password: string }) => Promise<ActionResult<{ enabled: boolean }>>;
  stepUp: CodeOnlyStepUpAsk;
}) {
  const t = useTranslations('portal.account.closeNotices');
  return (
    <ToggleSettingForm
      name="closeNotices"
      enabled={enabled}
      label={t.rich('label', { code: (chunks) => <code>{chunks}</code> })}
      texts={{ submit: t('submit'), savedOn: t('savedOn'), savedOff: t('savedOff') }}
      save={(wanted, password) => saveCloseNoticesAction({ enabled: wanted, password })}
      stepUp={stepUp}
    />
  );
}
