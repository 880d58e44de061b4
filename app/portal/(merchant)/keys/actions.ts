'use server';

import { getTranslations } from 'next-intl/server';
import { getDb } from '@/lib/db/client';
import { revealAppSecret, rotateAppSecret } from '@/lib/portal/interface-keys';
import { refusal, type ActionResult } from '../../_session/action-result';
import { requireMerchant } from '../../_session/require-merchant';

export async function revealSecretAction(password: string): Promise<ActionResult<{ appSecret: string }>> {
  const merchant = await requireMerchant();
  try {
    return { ok: true, data: { appSecret: await revealAppSecret(getDb(), merchant, { password: String(password), now: new Date() }) } };
  } catch (error) {
    return refusal(error);
  }
}

export async function rotateSecretAction(input: { password: string; confirmed: boolean }): Promise<ActionResult<{ appSecret: string }>> {
  const merchant = await requireMerchant();
  if (input.confirmed !== true) {
    const t = await getTranslations('portal.keys');
    return { ok: false, message: t('confirmRotate'), fieldErrors: { confirmed: t('confirmRequired') } };
  }
  try {
    return { ok: true, data: { appSecret: await rotateAppSecret(getDb(), merchant, { password: String(input.password), now: new Date() }) } };
  } catch (error) {
    return refusal(error);
  }
}
