'use server';

import { revalidatePath } from 'next/cache';
import { deleteCredential, setCredentialEnabled, submitAlipayCredential, submitWechatCredential } from '@/lib/credentials/credentials';
import { CredentialNotFound, InvalidCredential } from '@/lib/credentials/errors';
import { getDb } from '@/lib/db/client';
import { portalActor } from '@/lib/portal/merchant-context';
import { refusal, type ActionResult } from '../../_session/action-result';
import { requireMerchant } from '../../_session/require-merchant';

const PAGE = '/portal/credentials';

/** Every value from the browser is taken as text; the domain validates it. */
const asText = (value: unknown) => (typeof value === 'string' ? value : '');

function credentialRefusal(error: unknown): { ok: false; message: string; fieldErrors?: Record<string, string> } {
  if (error instanceof InvalidCredential) {
    return { ok: false, message: `Check the fields below: ${Object.values(error.fieldErrors).join('; ')}`, fieldErrors: { ...error.fieldErrors } };
  }
  if (error instanceof CredentialNotFound) return { ok: false, message: 'Not found. / 未找到。' };
  return refusal(error);
}

export async function submitAlipayCredentialAction(input: Record<string, unknown>): Promise<ActionResult<{ id: number }>> {
  const merchant = await requireMerchant();
  try {
    const credential = await submitAlipayCredential(getDb(), {
      merchantId: merchant.merchantId,
      actor: portalActor(merchant),
      now: new Date(),
      credential: {
        appId: asText(input.appId),
        appPrivateKey: asText(input.appPrivateKey),
        alipayPublicKey: asText(input.alipayPublicKey),
        sellerId: asText(input.sellerId),
      },
    });
    revalidatePath(PAGE);
    return { ok: true, data: { id: credential.id } };
  } catch (error) {
    return credentialRefusal(error);
  }
}

export async function submitWechatCredentialAction(input: Record<string, unknown>): Promise<ActionResult<{ id: number }>> {
  const merchant = await requireMerchant();
  try {
    const credential = await submitWechatCredential(getDb(), {
      merchantId: merchant.merchantId,
      actor: portalActor(merchant),
      now: new Date(),
      credential: {
        appId: asText(input.appId),
        mchId: asText(input.mchId),
        merchantCertSerial: asText(input.merchantCertSerial),
        merchantPrivateKey: asText(input.merchantPrivateKey),
        apiV3Key: asText(input.apiV3Key),
        platformCertificate: asText(input.platformCertificate),
        wechatPayPublicKey: asText(input.wechatPayPublicKey),
        wechatPayPublicKeyId: asText(input.wechatPayPublicKeyId),
      },
    });
    revalidatePath(PAGE);
    return { ok: true, data: { id: credential.id } };
  } catch (error) {
    return credentialRefusal(error);
  }
}

export async function setCredentialEnabledAction(credentialId: number, enabled: boolean): Promise<ActionResult<{ enabled: boolean }>> {
  const merchant = await requireMerchant();
  try {
    const credential = await setCredentialEnabled(getDb(), {
      credentialId: Number(credentialId),
      scope: { kind: 'merchant', merchantId: merchant.merchantId },
      enabled: enabled === true,
      actor: portalActor(merchant),
      now: new Date(),
    });
    revalidatePath(PAGE);
    return { ok: true, data: { enabled: credential.enabled } };
  } catch (error) {
    return credentialRefusal(error);
  }
}

export async function deleteCredentialAction(credentialId: number): Promise<ActionResult> {
  const merchant = await requireMerchant();
  try {
    await deleteCredential(getDb(), { credentialId: Number(credentialId), scope: { kind: 'merchant', merchantId: merchant.merchantId }, actor: portalActor(merchant), now: new Date() });
    revalidatePath(PAGE);
    return { ok: true, data: undefined };
  } catch (error) {
    return credentialRefusal(error);
  }
}
