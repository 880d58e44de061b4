'use server';

import { getTranslations } from 'next-intl/server';
import { getDb } from '@/lib/db/client';
import { debugMerchantSignature, type SignatureDebugResult } from '@/lib/portal/signature-debugger';
import { refusal, type ActionResult } from '../../_session/action-result';
import { requireMerchant } from '../../_session/require-merchant';

export async function debugSignatureAction(input: { body: string; appSecret: string }): Promise<ActionResult<SignatureDebugResult>> {
  const merchant = await requireMerchant();
  if (!input.appSecret) {
    const t = await getTranslations('portal.signature');
    return { ok: false, message: t('enterSecret'), fieldErrors: { appSecret: t('required') } };
  }
  try {
    return { ok: true, data: await debugMerchantSignature(getDb(), merchant, { body: String(input.body), appSecret: String(input.appSecret) }) };
  } catch (error) {
    return refusal(error);
  }
}
