import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { merchants } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { DomainError, notFound } from '../errors/domain-error';
import { domainMessage } from '../errors/domain-message';
import { canonicalTimeZone, utcOffsetLabel } from '../i18n/time-zone';

/** The zones the portal's form offers first: where the merchants this serves and their customers mostly are. */
export const COMMON_TIME_ZONES = [
  'Asia/Shanghai',
  'Asia/Hong_Kong',
  'Asia/Taipei',
  'Asia/Singapore',
  'Asia/Tokyo',
  'Asia/Seoul',
  'Asia/Bangkok',
  'Asia/Dubai',
  'Europe/London',
  'Europe/Berlin',
  'America/New_York',
  'America/Los_Angeles',
  'Australia/Sydney',
  'UTC',
] as const;

/** What the form offers: the common zones, and the merchant's own when it is another, each with its offset now. */
export function timeZoneChoices(current: string, now: Date): { value: string; label: string }[] {
  const zones: string[] = (COMMON_TIME_ZONES as readonly string[]).includes(current) ? [...COMMON_TIME_ZONES] : [current, ...COMMON_TIME_ZONES];
  return zones.map((zone) => ({ value: zone, label: `${zone} (${utcOffsetLabel(zone, now)})` }));
}

const notATimeZone = (value: string) =>
  new DomainError('invalid_parameter', {
    message: `timeZone: "${value}" is not a time zone name (e.g. Asia/Shanghai, UTC)`,
    fieldErrors: { timeZone: domainMessage('merchantSettings.notATimeZone') },
  });

/**
 * Sets the zone the merchant's back office shows times and counts calendar days in. The name must be one both this
 * runtime and PostgreSQL (which groups the overview's days) know; it is stored as the runtime spells it. A change is
 * written to the audit log (before/after) in the same transaction, under the merchant's row lock; choosing the zone
 * already set changes nothing. Returns the zone now set.
 */
export async function setMerchantTimeZone(db: Database, input: { merchantId: number; timeZone: string; actor: string; now: Date }): Promise<string> {
  const timeZone = canonicalTimeZone(input.timeZone);
  if (!timeZone || !(await databaseKnowsTimeZone(db, timeZone))) throw notATimeZone(input.timeZone);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [before] = await tx.select({ appId: merchants.appId, timeZone: merchants.timeZone }).from(merchants).where(eq(merchants.id, input.merchantId)).for('update');
    if (!before) throw notFound('merchant');
    if (before.timeZone === timeZone) return timeZone;
    await tx.update(merchants).set({ timeZone, updatedAt: input.now }).where(eq(merchants.id, input.merchantId));
    await recordAudit(tx, {
      actor: input.actor,
      action: 'merchant.time_zone',
      subject: `merchant:${before.appId}`,
      before: { timeZone: before.timeZone },
      after: { timeZone },
    });
    return timeZone;
  });
}

async function databaseKnowsTimeZone(db: Database, timeZone: string): Promise<boolean> {
  const result = await db.execute<{ known: boolean }>(sql`SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = ${timeZone}) AS known`);
  return result.rows[0]?.known === true;
}
