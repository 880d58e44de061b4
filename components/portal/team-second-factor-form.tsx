'use client';

import { useTranslations } from 'next-intl';
import type { ActionResult } from './action-result';
import { ToggleSettingForm } from './toggle-setting-form';

/** The owner's rule that every member signs in with a second factor. */
export function TeamSecondFactorForm({ required, setTeamSecondFactorAction }: { required: boolean; setTeamSecondFactorAction: (required: boolean) => Promise<ActionResult<{ enabled: boolean }>> }) {
  const t = useTranslations('portal.team.secondFactor');
  return (
    <ToggleSettingForm
      name="teamSecondFactor"
      enabled={required}
      label={t('label')}
      texts={{ submit: t('submit'), savedOn: t('savedOn'), savedOff: t('savedOff') }}
      save={setTeamSecondFactorAction}
    />
  );
}
