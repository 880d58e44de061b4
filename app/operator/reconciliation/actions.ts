'use server';

import { revalidatePath } from 'next/cache';
import { getTranslations } from 'next-intl/server';
import { getDb } from '@/lib/db/client';
import { invalidParameter } from '@/lib/errors/domain-error';
import { operatorActor } from '@/lib/operator/operator-context';
import { rerunReconciliationDay } from '@/lib/operator/rerun-reconciliation';
import { beijingDayBounds } from '@/lib/reconciliation/beijing-day';
import { creditFinding } from '@/lib/reconciliation/credit-finding';
import { asId, asText, operatorAction, type OperatorActionResult } from '../_session/operator-action';

/** Credits the order of a finding paid upstream but not here (paid, notified, audited). */
export async function creditFindingAction(findingId: unknown): Promise<OperatorActionResult<{ orderNo: string }>> {
  return operatorAction(async (operator) => {
    const result = await creditFinding(getDb(), { findingId: asId(findingId), actor: operatorActor(operator), now: new Date() });
    revalidatePath('/operator', 'layout');
    return { orderNo: result.orderNo };
  });
}

/** Reconciles the page's day again, every channel and scope (audited); the CLI's `reconcile --date` does it for scripts. */
export async function rerunReconciliationAction(day: unknown): Promise<OperatorActionResult<{ done: string }>> {
  return operatorAction(async (operator) => {
    const asked = asText(day);
    if (!beijingDayBounds(asked)) throw invalidParameter(`day: ${JSON.stringify(asked)} is not a day as yyyy-MM-dd`);
    const outcomes = await rerunReconciliationDay(getDb(), { day: asked, actor: operatorActor(operator) });
    revalidatePath('/operator', 'layout');
    const t = await getTranslations('console.operatorActions');
    const count = (status: string) => outcomes.filter((outcome) => outcome.status === status).length;
    const failures = outcomes.filter((outcome) => outcome.status === 'failed').map((outcome) => `${outcome.channel} ${outcome.scope}: ${outcome.detail}${outcome.keptCompletedRun ? ` (${t('keptRun')})` : ''}`);
    return { done: [t('rerunDone', { day: asked, complete: count('complete'), unavailable: count('unavailable'), failed: count('failed') }), ...failures].join(' ') };
  });
}
