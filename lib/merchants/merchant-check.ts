import type { Database } from '../db/client';
import { preparedSql } from '../db/prepared';

/**
 * A request authenticated with a remembered merchant row (signing-merchants.ts) rather than one read for it: its
 * outcome stands only once the row is confirmed unchanged. `version` is the row's xmin, which every UPDATE of the row
 * replaces, so "same xmin" means "the secrets, the overlap and the order permission the request was checked against
 * are still the merchant's". A hot statement confirms it in its own text (one round trip: the USDT insert, the order
 * query) and sets `confirmed`; anything else confirms it with confirmMerchant before it acts.
 */
export interface MerchantCheck {
  merchantId: number;
  version: string;
  confirmed: boolean;
}

/** The remembered row changed (or is gone) since the request was checked against it: the request is run again on a fresh read. */
export class StaleMerchant extends Error {
  constructor() {
    super('the merchant row changed since it was remembered');
  }
}

/** SQL that is true when merchant $id still has the row version $version (both placeholders' numbers given). */
export function merchantUnchangedSql(idParam: number, versionParam: number): string {
  return `EXISTS (SELECT 1 FROM merchants m WHERE m.id = $${idParam}::bigint AND m.xmin = $${versionParam}::text::xid)`;
}

/**
 * The same test for each row of a batched statement (statement-batches.ts) whose row `alias` has columns merchant_id
 * and version: true when unchanged, false when changed, NULL when the merchant is gone or the row has no version. A
 * scalar subquery, so that it stays one probe of the merchants' key per row: an EXISTS here may be planned as a hash
 * of every merchant's row, built again by each statement.
 */
export function merchantUnchangedForRowSql(alias: string): string {
  return `(SELECT m.xmin = ${alias}.version::xid FROM merchants m WHERE m.id = ${alias}.merchant_id)`;
}

/** Marks the check confirmed when `unchanged`, else throws StaleMerchant. */
export function settleMerchantCheck(check: MerchantCheck, unchanged: boolean): void {
  if (!unchanged) throw new StaleMerchant();
  check.confirmed = true;
}

/** Confirms the remembered row with a statement of its own (nothing to do without a check, or once it is confirmed). */
export async function confirmMerchant(db: Database, check: MerchantCheck | undefined): Promise<void> {
  if (!check || check.confirmed) return;
  const { rows } = await preparedSql<{ unchanged: boolean }>(db, 'merchant_unchanged', `SELECT ${merchantUnchangedSql(1, 2)} AS unchanged`, ['merchantId', 'version']).execute({
    merchantId: check.merchantId,
    version: check.version,
  });
  settleMerchantCheck(check, rows[0]!.unchanged);
}
