'use server';

import { assertRoleMay } from '@/lib/accounts/team-roles';
import { getDb } from '@/lib/db/client';
import { debugMerchantSignature, type SignatureDebugResult } from '@/lib/portal/signature-debugger';
import { refusal, type ActionResult } from '../../_session/action-result';
import { requireMerchant } from '../../_session/require-merchant';

/** The body only: the server signs with the merchant's current AppSecret, which never travels from the browser. */
export async function debugSignatureAction(input: { body: string }): Promise<ActionResult<SignatureDebugResult>> {
  const merchant = await requireMerchant();
  try {
    assertRoleMay(merchant, 'developerTools');
    return { ok: true, data: await debugMerchantSignature(getDb(), merchant, { body: String(input.body) }) };
  } catch (error) {
    return refusal(error);
  }
}
