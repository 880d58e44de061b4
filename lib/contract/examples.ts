import { sign } from '../signing';

/**
 * What every documented example shares. Each channel's example requests and notification live in its folder
 * (lib/channels/<name>/api-examples.ts, listed by the registry): one source for the OpenAPI document and the
 * portal's API reference. Tests send these very requests to the service, so the documentation cannot drift from
 * what the service accepts.
 */

/** Stands in for the AppSecret in every published example; it is never a real secret. */
export const PLACEHOLDER_APP_SECRET = 'YOUR_APP_SECRET';
/** Stands in for the merchant's AppID where no merchant is known (the OpenAPI document). */
export const PLACEHOLDER_APP_ID = 'mch_YOUR_APP_ID';

export type ExampleFields = Record<string, string>;

export const EXAMPLE_MERCHANT_ORDER_NO = 'ORDER-20260101-0001';

/** The fields with their `signature` (by lib/signing) under the given secret. */
export function signedExample(fields: ExampleFields, appSecret = PLACEHOLDER_APP_SECRET): ExampleFields {
  return { ...fields, signature: sign(fields, appSecret) };
}
