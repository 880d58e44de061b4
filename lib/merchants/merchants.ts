import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { prepared } from '../db/prepared';
import { merchants, type MerchantRow } from '../db/schema';
import { decryptSecret, encryptSecret } from '../crypto/secret-box';

export interface Merchant {
  id: number;
  appId: string;
  name: string;
  orderPermission: boolean;
}

function toMerchant(row: MerchantRow): Merchant {
  return { id: row.id, appId: row.appId, name: row.name, orderPermission: row.orderPermission };
}

function newAppId(): string {
  return `mch_${randomBytes(8).toString('hex')}`;
}

function newAppSecret(): string {
  return randomBytes(24).toString('base64url');
}

export class MerchantNotFound extends Error {
  constructor(readonly appId: string) {
    super(`no merchant with appId ${appId}`);
  }
}

/** Creates a merchant; the plain AppSecret is returned once, to be shown to its owner. */
export async function createMerchant(db: Database, input: { name: string; orderPermission: boolean }) {
  const appSecret = newAppSecret();
  const [row] = await db
    .insert(merchants)
    .values({ appId: newAppId(), name: input.name, orderPermission: input.orderPermission, appSecretEncrypted: encryptSecret(appSecret) })
    .returning();
  return { merchant: toMerchant(row!), appSecret };
}

/** The merchant and its AppSecret, for authenticating a signed request. */
export async function findMerchantForSigning(db: Database, appId: string): Promise<{ merchant: Merchant; appSecret: string } | undefined> {
  const statement = prepared(db, 'merchant_by_app_id', (handle, name) =>
    handle.select().from(merchants).where(eq(merchants.appId, sql.placeholder('appId'))).limit(1).prepare(name),
  );
  const [row] = await statement.execute({ appId });
  if (!row) return undefined;
  return { merchant: toMerchant(row), appSecret: decryptSecret(row.appSecretEncrypted) };
}

export async function setOrderPermission(db: Database, appId: string, enabled: boolean): Promise<Merchant> {
  const [row] = await db
    .update(merchants)
    .set({ orderPermission: enabled, updatedAt: new Date() })
    .where(eq(merchants.appId, appId))
    .returning();
  if (!row) throw new MerchantNotFound(appId);
  return toMerchant(row);
}

export async function countMerchants(db: Database): Promise<number> {
  return db.$count(merchants);
}
