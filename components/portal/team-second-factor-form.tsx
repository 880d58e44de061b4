'use client';

import { useTranslations } from 'next-intl';
import type { CodeOnlyStepUpAsk } from '@/lib/accounts/step-up';
import type { ActionResult } from './action-result';
import { ToggleSettingForm } from './toggle-setting-form';

/** The owner's rule that every member signs in with a second factor, changed after the step-up (StepUpField). */
export function TeamSecondFactorForm({
  required,
  setTeamSecondFactorAction,
  stepUp,
}: {
  required: boolean;
  setTeamSecondFactorAction: (required: boolean, password: string) => Promise<ActionResult<{ enabled: boolean }>>;
  stepUp: CodeOnlyStepUpAsk;
}) {
  const t = useTranslations('portal.team.secondFactor');
  return (
    <ToggleSettingForm
      name="teamSecondFactor"
      enabled={required}
      label={t('label')}
      texts={{ submit: t('submit'), savedOn: t('savedOn'), savedOff: t('savedOff') }}
      save={setTeamSecondFactorAction}
      stepUp={stepUp}
    />
  );
}
