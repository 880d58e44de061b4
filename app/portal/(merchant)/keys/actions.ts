'use server';

import { assertRoleMay } from '@/lib/accounts/team-roles';
import { revalidatePath } from 'next/cache';
import { getTranslations } from 'next-intl/server';
import { getDb } from '@/lib/db/client';
import { endAppSecretOverlap, revealAppSecret, rotateAppSecret } from '@/lib/portal/interface-keys';
import { refusal, type ActionResult } from '../../_session/action-result';
import { requireMerchant } from '../../_session/require-merchant';

const PAGE = '/portal/keys';

export async function revealSecretAction(password: string): Promise<ActionResult<{ appSecret: string }>> {
  const merchant = await requireMerchant();
  try {
    assertRoleMay(merchant, 'keys');
    return { ok: true, data: { appSecret: await revealAppSecret(getDb(), merchant, { password: String(password), now: new Date() }) } };
  } catch (error) {
    return refusal(error);
  }
}

export async function rotateSecretAction(input: { password: string; confirmed: boolean; overlap: boolean }): Promise<ActionResult<{ appSecret: string }>> {
  const merchant = await requireMerchant();
  try {
    assertRoleMay(merchant, 'keys');
    if (input.confirmed !== true) {
      const t = await getTranslations('portal.keys');
      return { ok: false, message: t('confirmRotate'), fieldErrors: { confirmed: t('confirmRequired') } };
    }
    const appSecret = await rotateAppSecret(getDb(), merchant, { password: String(input.password), now: new Date(), overlap: input.overlap === true });
    revalidatePath(PAGE);
    return { ok: true, data: { appSecret } };
  } catch (error) {
    return refusal(error);
  }
}

/** Ends the overlap, confirmed and with the password as for a rotation: the previous AppSecret stops working now. */
export async function endOverlapAction(input: { password: string; confirmed: boolean }): Promise<ActionResult<{ endedAt: string }>> {
  const merchant = await requireMerchant();
  try {
    assertRoleMay(merchant, 'keys');
    if (input?.confirmed !== true) {
      const t = await getTranslations('portal.keys');
      return { ok: false, message: t('confirmEndOverlap'), fieldErrors: { confirmed: t('confirmRequired') } };
    }
    const { endedAt } = await endAppSecretOverlap(getDb(), merchant, { password: String(input.password ?? ''), now: new Date() });
    revalidatePath(PAGE);
    return { ok: true, data: { endedAt: endedAt.toISOString() } };
  } catch (error) {
    return refusal(error);
  }
}
