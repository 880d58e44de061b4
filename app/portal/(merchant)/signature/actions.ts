'use server';

import { getDb } from '@/lib/db/client';
import { debugMerchantSignature, type SignatureDebugResult } from '@/lib/portal/signature-debugger';
import { refusal, type ActionResult } from '../../_session/action-result';
import { requireMerchant } from '../../_session/require-merchant';

export async function debugSignatureAction(input: { body: string; appSecret: string }): Promise<ActionResult<SignatureDebugResult>> {
  const merchant = await requireMerchant();
  if (!input.appSecret) return { ok: false, message: 'Enter the AppSecret you sign with. / 请输入签名所用的 AppSecret。', fieldErrors: { appSecret: 'Required / 必填' } };
  try {
    return { ok: true, data: await debugMerchantSignature(getDb(), merchant, { body: String(input.body), appSecret: String(input.appSecret) }) };
  } catch (error) {
    return refusal(error);
  }
}
