import { randomBytes } from 'node:crypto';
import { DomainError } from '../errors/domain-error';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { prepared } from '../db/prepared';
import { merchants, type MerchantRow } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { encryptSecret } from '../crypto/secret-box';
import { appSecretOf } from './app-secret-cache';

export interface Merchant {
  id: number;
  appId: string;
  name: string;
  orderPermission: boolean;
}

function toMerchant(row: Pick<MerchantRow, 'id' | 'appId' | 'name' | 'orderPermission'>): Merchant {
  return { id: row.id, appId: row.appId, name: row.name, orderPermission: row.orderPermission };
}

function newAppId(): string {
  return `mch_${randomBytes(8).toString('hex')}`;
}

function newAppSecret(): string {
  return randomBytes(24).toString('base64url');
}

const merchantNotFound = (appId: string) => new DomainError('merchant_not_found', { message: `merchant not found: ${appId}` });

/** Creates a merchant; the plain AppSecret is returned once, to be shown to its owner. */
export async function createMerchant(db: Database, input: { name: string; orderPermission: boolean }) {
  const appSecret = newAppSecret();
  const [row] = await db
    .insert(merchants)
    .values({ appId: newAppId(), name: input.name, orderPermission: input.orderPermission, appSecretEncrypted: encryptSecret(appSecret) })
    .returning();
  return { merchant: toMerchant(row!), appSecret };
}

/** What a signed request is checked against: the merchant, its AppSecret(s), and the row's version (its xmin). */
export interface SigningMerchant {
  merchant: Merchant;
  appSecret: string;
  previousAppSecret?: string;
  /** The merchants row's xmin: any change of the row gives it another (merchant-check.ts). */
  version: string;
}

/** The merchants row as signing reads it. */
export interface SigningRow extends Pick<MerchantRow, 'id' | 'appId' | 'name' | 'orderPermission' | 'appSecretEncrypted' | 'previousAppSecretEncrypted' | 'previousAppSecretUntil'> {
  version: string;
}

export async function readSigningRow(db: Database, appId: string): Promise<SigningRow | undefined> {
  const statement = prepared(db, 'merchant_by_app_id_with_version', (handle, name) =>
    handle
      .select({
        id: merchants.id,
        appId: merchants.appId,
        name: merchants.name,
        orderPermission: merchants.orderPermission,
        appSecretEncrypted: merchants.appSecretEncrypted,
        previousAppSecretEncrypted: merchants.previousAppSecretEncrypted,
        previousAppSecretUntil: merchants.previousAppSecretUntil,
        version: sql<string>`${merchants}.xmin::text`,
      })
      .from(merchants)
      .where(eq(merchants.appId, sql.placeholder('appId')))
      .limit(1)
      .prepare(name),
  );
  const [row] = await statement.execute({ appId });
  return row;
}

/**
 * The merchant and its AppSecret of a signing row; `previousAppSecret` while the overlap after a rotation lasts at
 * `now` (lib/portal/interface-keys.ts): a request signed with either is the merchant's.
 */
export function signingMerchantOf(row: SigningRow, now: Date): SigningMerchant {
  const overlapping = row.previousAppSecretEncrypted && row.previousAppSecretUntil && row.previousAppSecretUntil.getTime() > now.getTime();
  const found = { merchant: toMerchant(row), appSecret: appSecretOf(row.appSecretEncrypted), version: row.version };
  return overlapping ? { ...found, previousAppSecret: appSecretOf(row.previousAppSecretEncrypted!) } : found;
}

/** The merchant and its AppSecret(s) for authenticating a signed request, read now. */
export async function findMerchantForSigning(db: Database, appId: string, now = new Date()): Promise<SigningMerchant | undefined> {
  const row = await readSigningRow(db, appId);
  return row && signingMerchantOf(row, now);
}

/** Who changes a merchant and why: written to the audit log in the same transaction as the change. */
export interface AuditedBy {
  actor: string;
  reason?: string;
}

/**
 * Allows or stops order creation (open-API code 1004 while off). With `audit` (the operator CLI and console) the
 * change and its audit entry (before/after) are one transaction under a row lock.
 */
export async function setOrderPermission(db: Database, appId: string, enabled: boolean, audit?: AuditedBy): Promise<Merchant> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [before] = await tx.select().from(merchants).where(eq(merchants.appId, appId)).for('update');
    if (!before) throw merchantNotFound(appId);
    const [row] = await tx.update(merchants).set({ orderPermission: enabled, updatedAt: new Date() }).where(eq(merchants.id, before.id)).returning();
    if (audit) {
      await recordAudit(tx, {
        actor: audit.actor,
        action: enabled ? 'merchant.orders_on' : 'merchant.orders_off',
        subject: `merchant:${appId}`,
        reason: audit.reason,
        before: { orderPermission: before.orderPermission },
        after: { orderPermission: row!.orderPermission },
      });
    }
    return toMerchant(row!);
  });
}

export async function countMerchants(db: Database): Promise<number> {
  return db.$count(merchants);
}
