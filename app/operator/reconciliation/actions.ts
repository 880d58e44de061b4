'use server';

import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { operatorActor } from '@/lib/operator/operator-context';
import { creditFinding } from '@/lib/reconciliation/credit-finding';
import { asId, operatorAction, type OperatorActionResult } from '../_session/operator-action';

/** Credits the order of a finding paid upstream but not here (paid, notified, audited). */
export async function creditFindingAction(findingId: unknown): Promise<OperatorActionResult<{ orderNo: string }>> {
  return operatorAction(async (operator) => {
    const result = await creditFinding(getDb(), { findingId: asId(findingId), actor: operatorActor(operator), now: new Date() });
    revalidatePath('/operator', 'layout');
    return { orderNo: result.orderNo };
  });
}
