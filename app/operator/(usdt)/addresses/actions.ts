'use server';

import { revalidatePath } from 'next/cache';
import { getTranslations } from 'next-intl/server';
import { actionRefused } from '@/lib/errors/domain-error';
import { addReceivingAddress, setReceivingAddressEnabled } from '@/lib/channels/usdt/receiving-addresses';
import { getDb } from '@/lib/db/client';
import { parseMinorUnits } from '@/lib/money/decimal-amount';
import { operatorActor } from '@/lib/operator/operator-context';
import { usdtChainNamed } from '@/lib/channels/usdt/usdt-chains';
import { setUsdtMaxPerOrderMinor } from '@/lib/channels/usdt/max-per-order';
import { asId, asText, operatorAction, type OperatorActionResult } from '../../_session/operator-action';

const PAGE = '/operator/addresses';

/**
 * Adds a receiving address on the chosen chain (TRON's base58check, or an EVM address, checked; the error names the
 * field). Adding one already there changes nothing.
 */
export async function addAddressAction(input: { chain?: unknown; address?: unknown }): Promise<OperatorActionResult<{ id: number; created: boolean }>> {
  return operatorAction(
    async (operator) => {
      const address = asText(input?.address).trim();
      const chain = usdtChainNamed(asText(input?.chain));
      if (!chain) {
        const t = await getTranslations('console.addresses');
        throw actionRefused(`chain: ${t('chainRequired')}`);
      }
      if (address === '') {
        const t = await getTranslations('console.addresses');
        throw actionRefused(`address: ${t('addressRequired')}`);
      }
      const result = await addReceivingAddress(getDb(), chain.name, address, { actor: operatorActor(operator) });
      revalidatePath(PAGE);
      return { id: result.address.id, created: result.created };
    },
    { field: 'address' },
  );
}

export async function setAddressEnabledAction(addressId: unknown, enabled: unknown): Promise<OperatorActionResult<{ enabled: boolean }>> {
  return operatorAction(async (operator) => {
    const row = await setReceivingAddressEnabled(getDb(), { id: asId(addressId), enabled: enabled === true, actor: operatorActor(operator) });
    revalidatePath(PAGE);
    return { enabled: row.enabled };
  });
}

/** The platform per-order USDT limit (orders above it are refused with 1008). */
export async function setUsdtLimitAction(input: { usdtMax?: unknown }): Promise<OperatorActionResult<{ usdtMax: string }>> {
  return operatorAction(async (operator) => {
    const text = asText(input?.usdtMax).trim();
    const minor = parseMinorUnits(text);
    if (minor === undefined || minor <= 0n) {
      const t = await getTranslations('console.addresses');
      throw actionRefused(`usdtMax: ${t('maxInvalid')}`);
    }
    await setUsdtMaxPerOrderMinor(getDb(), minor, { actor: operatorActor(operator) });
    revalidatePath(PAGE);
    return { usdtMax: text };
  });
}
