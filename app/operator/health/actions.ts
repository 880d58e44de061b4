'use server';

import { revalidatePath } from 'next/cache';
import { getTranslations } from 'next-intl/server';
import { resumeEvmChain } from '@/lib/channels/usdt/evm/resume-evm-chain';
import { getDb } from '@/lib/db/client';
import { operatorActor } from '@/lib/operator/operator-context';
import { fieldRefusal } from '../_session/field-refusal';
import { asText, operatorAction, type OperatorActionResult } from '../_session/operator-action';
import { requireOperator } from '../_session/require-operator';

/** Resumes an EVM chain held after a re-org, after the block given (audited); the CLI's `evm resume` stays for scripts. */
export async function resumeEvmChainAction(chain: unknown, values: Record<string, string>): Promise<OperatorActionResult<{ done: string }>> {
  await requireOperator();
  const t = await getTranslations('console.operatorActions');
  const afterBlock = asText(values.afterBlock).trim();
  if (!/^\d{1,20}$/.test(afterBlock)) return fieldRefusal('afterBlock', t('blockInvalid'));
  return operatorAction(async (operator) => {
    const resumed = await resumeEvmChain(getDb(), { chain: asText(chain), afterBlock: BigInt(afterBlock), actor: operatorActor(operator), reason: asText(values.reason).trim() || undefined });
    revalidatePath('/operator', 'layout');
    return { done: t('resumeDone', { chain: resumed.chain, block: afterBlock, hash: resumed.blockHash }) };
  });
}
