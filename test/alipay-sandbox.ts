import { getDb } from '../lib/db/client';
import { addSandboxCredential } from '../lib/cli/credential-add-command';
import { aMerchant } from './factories';

/** A merchant with an approved, enabled ALIPAY credential on the simulator's application (as `credential add --sandbox`). */
export async function anAlipayMerchant() {
  const merchant = await aMerchant();
  const credential = await addSandboxCredential(getDb(), { appId: merchant.appId, channel: 'ALIPAY', approve: true, enable: true, actor: 'test' });
  return { ...merchant, credentialId: credential.id };
}

let counter = 0;

/** An ALIPAY submit of the merchant, every field valid; `overrides` with undefined drops a field. */
export function alipaySubmit(appId: string, overrides: Record<string, unknown> = {}) {
  counter += 1;
  const fields: Record<string, unknown> = {
    appId,
    merchantOrderNo: `ALI-${process.pid}-${counter}-${Date.now()}`,
    payType: 'ALIPAY',
    payMethod: 'web',
    amount: '12.50',
    productName: 'VIP month',
    productDesc: 'One month of VIP',
    notifyUrl: 'https://merchant.example/notify',
    redirectUrl: 'https://merchant.example/return',
    attach: 'user=42',
    ...overrides,
  };
  for (const [name, value] of Object.entries(fields)) if (value === undefined) delete fields[name];
  return fields;
}
