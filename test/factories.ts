import { randomBytes } from 'node:crypto';
import { getDb } from '../lib/db/client';
import { addReceivingAddress } from '../lib/addresses/receiving-addresses';
import { createMerchant } from '../lib/merchants/merchants';
import { tronAddressFromAccountBytes } from '../lib/tron/address';

export async function aMerchant(options: { orderPermission?: boolean } = {}) {
  const { merchant, appSecret } = await createMerchant(getDb(), { name: 'Test merchant', orderPermission: options.orderPermission ?? true });
  return { ...merchant, appSecret };
}

export function aTronAddress(): string {
  return tronAddressFromAccountBytes(randomBytes(20));
}

export async function receivingAddresses(count: number): Promise<string[]> {
  const added: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const address = aTronAddress();
    await addReceivingAddress(getDb(), 'TRC20', address);
    added.push(address);
  }
  return added;
}
