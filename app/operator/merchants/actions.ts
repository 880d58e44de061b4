'use server';

import { revalidatePath } from 'next/cache';
import { getTranslations } from 'next-intl/server';
import { unlockSignIn } from '@/lib/accounts/unlock-sign-in';
import { setMerchantPoolLimits, type PoolLimitSetting } from '@/lib/channels/usdt/merchant-pool-limits';
import { getDb } from '@/lib/db/client';
import { setOrderPermission } from '@/lib/merchants/merchants';
import { operatorActor } from '@/lib/operator/operator-context';
import { fieldRefusal } from '../_session/field-refusal';
import { asText, operatorAction, type OperatorActionResult } from '../_session/operator-action';
import { requireOperator } from '../_session/require-operator';

/** Allows or stops a merchant's orders (the open API answers 1004 while stopped); audited with before/after. */
export async function setOrderPermissionAction(appId: unknown, enabled: unknown): Promise<OperatorActionResult<{ orderPermission: boolean }>> {
  return operatorAction(async (operator) => {
    const merchant = await setOrderPermission(getDb(), asText(appId), enabled === true, { actor: operatorActor(operator) });
    revalidatePath('/operator/merchants', 'layout');
    return { orderPermission: merchant.orderPermission };
  });
}

/** A pool limit as typed: blank keeps it, "default", "none" or a whole number of slots from 1 to 9999999. */
function poolLimit(text: string): PoolLimitSetting | undefined | 'invalid' {
  const value = text.trim().toLowerCase();
  if (value === '') return undefined;
  if (value === 'default' || value === 'none') return value;
  return /^[1-9]\d{0,6}$/.test(value) ? Number(value) : 'invalid';
}

/** Sets a merchant's share of the USDT receiving-address pool (audited); the CLI's `pool set` does it for scripts. */
export async function setPoolShareAction(appId: unknown, values: Record<string, string>): Promise<OperatorActionResult<{ done: string }>> {
  await requireOperator();
  const t = await getTranslations('console.operatorActions');
  const maxHeldSlots = poolLimit(asText(values.heldSlots));
  const maxAmountSlots = poolLimit(asText(values.amountSlots));
  if (maxHeldSlots === 'invalid') return fieldRefusal('heldSlots', t('poolLimitInvalid'));
  if (maxAmountSlots === 'invalid') return fieldRefusal('amountSlots', t('poolLimitInvalid'));
  if (maxHeldSlots === undefined && maxAmountSlots === undefined) return fieldRefusal('heldSlots', t('poolLimitMissing'));
  return operatorAction(async (operator) => {
    const limits = await setMerchantPoolLimits(getDb(), asText(appId), { maxHeldSlots, maxAmountSlots }, { actor: operatorActor(operator), reason: asText(values.reason).trim() || undefined });
    revalidatePath('/operator/merchants', 'layout');
    return { done: t('poolShareDone', { held: String(limits.maxHeldSlots), amount: String(limits.maxAmountSlots) }) };
  });
}

/** Lets an account's owner sign in again after its sign-ins were locked (audited); the CLI's `account unlock` stays. */
export async function unlockAccountAction(email: unknown, values: Record<string, string>): Promise<OperatorActionResult<{ done: string }>> {
  return operatorAction(async (operator) => {
    const unlocked = await unlockSignIn(getDb(), asText(email), { actor: operatorActor(operator), reason: asText(values.reason).trim() || undefined });
    revalidatePath('/operator/merchants', 'layout');
    const t = await getTranslations('console.operatorActions');
    return { done: t('unlockDone', { email: unlocked.email, cleared: unlocked.cleared }) };
  });
}
