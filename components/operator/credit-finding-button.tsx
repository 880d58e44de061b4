'use client';

import { useTranslations } from 'next-intl';
import type { OperatorActionResult } from './action-result';
import { useHydrated } from '@/components/portal/use-hydrated';
import { useServerAction } from '@/components/back-office/use-server-action';
import { FormStatus } from './field';
import { buttonClass } from './ui';

/** The one action on a reconciliation finding: credit the order the upstream was paid for. */
export function CreditFindingButton({ findingId, orderNo, creditFindingAction }: { findingId: number; orderNo: string; creditFindingAction: (findingId: number) => Promise<OperatorActionResult<{ orderNo: string }>> }) {
  const t = useTranslations('console.reconciliation');
  const hydrated = useHydrated();
  const { pending, error, run } = useServerAction();
  return (
    <div className="flex flex-col gap-1">
      <button type="button" className={buttonClass.primary} disabled={pending || !hydrated} aria-label={t('creditLabel', { orderNo })} onClick={() => run(() => creditFindingAction(findingId))}>
        {t('credit')}
      </button>
      <FormStatus error={error} />
    </div>
  );
}
