'use server';

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
    return { ok: false, message: 'Confirm that the old secret stops working. / 请确认旧密钥将立即失效。', fieldErrors: { confirmed: 'Required / 必选' } };
  }
  try {
    return { ok: true, data: { appSecret: await rotateAppSecret(getDb(), merchant, { password: String(input.password), now: new Date() }) } };
  } catch (error) {
    return refusal(error);
  }
}
