import { createHash } from 'node:crypto';

/** The YHT protocol's signature, written independently of lib/channels/yht/sign.ts. */
export function yhtSignature(fields: Record<string, string>, key: string): string {
  const text = Object.keys(fields)
    .filter((name) => name !== 'sign' && fields[name] !== '')
    .sort()
    .map((name) => `${name}=${fields[name]}`)
    .join('&');
  return createHash('md5').update(`${text}&key=${key}`).digest('hex').toUpperCase();
}

let counter = 0;

/** A YHT submit of the merchant, every field valid; `overrides` with undefined drops a field. */
export function yhtSubmit(appId: string, overrides: Record<string, unknown> = {}) {
  counter += 1;
  const fields: Record<string, unknown> = {
    appId,
    merchantOrderNo: `YHT-${process.pid}-${counter}-${Date.now()}`,
    payType: 'YHT',
    channel: 'YHT',
    payMethod: 'aliPay',
    payMoney: '88.50',
    productName: 'VIP month',
    notifyUrl: 'https://merchant.example/notify',
    redirectUrl: 'https://merchant.example/return',
    attach: 'user=42',
    ...overrides,
  };
  for (const [name, value] of Object.entries(fields)) if (value === undefined) delete fields[name];
  return fields;
}
