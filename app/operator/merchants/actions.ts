'use server';

import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { setOrderPermission } from '@/lib/merchants/merchants';
import { operatorActor } from '@/lib/operator/operator-context';
import { asText, operatorAction, type OperatorActionResult } from '../_session/operator-action';

/** Allows or stops a merchant's orders (the open API answers 1004 while stopped); audited with before/after. */
export async function setOrderPermissionAction(appId: unknown, enabled: unknown): Promise<OperatorActionResult<{ orderPermission: boolean }>> {
  return operatorAction(async (operator) => {
    const merchant = await setOrderPermission(getDb(), asText(appId), enabled === true, { actor: operatorActor(operator) });
    revalidatePath('/operator/merchants', 'layout');
    return { orderPermission: merchant.orderPermission };
  });
}
