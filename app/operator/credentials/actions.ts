'use server';

import { revalidatePath } from 'next/cache';
import { getTranslations } from 'next-intl/server';
import { actionRefused } from '@/lib/errors/domain-error';
import { deleteCredential, reviewCredential, setCredentialEnabled } from '@/lib/credentials/credentials';
import { getDb } from '@/lib/db/client';
import { operatorActor } from '@/lib/operator/operator-context';
import { asId, asText, operatorAction, type OperatorActionResult } from '../_session/operator-action';

type Done = OperatorActionResult<{ id: number }>;

function refresh() {
  revalidatePath('/operator', 'layout');
}

export async function approveCredentialAction(credentialId: unknown): Promise<Done> {
  return operatorAction(async (operator) => {
    const credential = await reviewCredential(getDb(), { credentialId: asId(credentialId), decision: 'approve', actor: operatorActor(operator), now: new Date() });
    refresh();
    return { id: credential.id };
  });
}

/** A rejection needs a reason: the merchant reads it in the portal. */
export async function rejectCredentialAction(credentialId: unknown, reason: unknown): Promise<Done> {
  return operatorAction(async (operator) => {
    const text = asText(reason);
    if (text.trim() === '') {
      const t = await getTranslations('console.review');
      throw actionRefused(`reason: ${t('reasonRequired')}`);
    }
    const credential = await reviewCredential(getDb(), { credentialId: asId(credentialId), decision: 'reject', reason: text, actor: operatorActor(operator), now: new Date() });
    refresh();
    return { id: credential.id };
  });
}

export async function setCredentialEnabledAction(credentialId: unknown, enabled: unknown): Promise<Done> {
  return operatorAction(async (operator) => {
    const credential = await setCredentialEnabled(getDb(), {
      credentialId: asId(credentialId),
      scope: { kind: 'operator' },
      enabled: enabled === true,
      actor: operatorActor(operator),
      now: new Date(),
    });
    refresh();
    return { id: credential.id };
  });
}

export async function deleteCredentialAction(credentialId: unknown): Promise<Done> {
  return operatorAction(async (operator) => {
    const credential = await deleteCredential(getDb(), { credentialId: asId(credentialId), scope: { kind: 'operator' }, actor: operatorActor(operator), now: new Date() });
    refresh();
    return { id: credential.id };
  });
}
