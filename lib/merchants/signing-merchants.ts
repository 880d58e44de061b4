import type { Database } from '../db/client';
import type { MerchantCheck } from './merchant-check';
import { readSigningRow, signingMerchantOf, type SigningMerchant, type SigningRow } from './merchants';

/**
 * Merchants' signing rows as last read, by AppID, so that the open API's hottest requests (a USDT submit, a query)
 * authenticate without a statement of their own. Nothing read from here is trusted on its own: a request checked
 * against a remembered row carries a MerchantCheck, and its outcome stands only once the row is confirmed unchanged
 * in the database (merchant-check.ts), so a rotation, the end of an overlap or a permission change counts at once, in
 * every process. The oldest entries make way once the map is full.
 */
const MAX_ENTRIES = 10_000;
const rowsByAppId = new Map<string, SigningRow>();

function remember(row: SigningRow): void {
  rowsByAppId.delete(row.appId);
  if (rowsByAppId.size >= MAX_ENTRIES) rowsByAppId.delete(rowsByAppId.keys().next().value!);
  rowsByAppId.set(row.appId, row);
}

export function forgetSigningMerchant(appId: string): void {
  rowsByAppId.delete(appId);
}

/** The merchant as last read (undefined when not remembered), with the check its request must pass. */
export function rememberedSigningMerchant(appId: string, now: Date): { found: SigningMerchant; check: MerchantCheck } | undefined {
  const row = rowsByAppId.get(appId);
  if (!row) return undefined;
  const found = signingMerchantOf(row, now);
  return { found, check: { merchantId: row.id, version: row.version, confirmed: false } };
}

/** The merchant read now (and remembered for the next request). */
export async function readSigningMerchant(db: Database, appId: string, now: Date): Promise<SigningMerchant | undefined> {
  const row = await readSigningRow(db, appId);
  if (!row) {
    forgetSigningMerchant(appId);
    return undefined;
  }
  remember(row);
  return signingMerchantOf(row, now);
}
