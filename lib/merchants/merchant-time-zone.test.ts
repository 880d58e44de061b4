import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { auditLog, merchants } from '../db/schema';
import { DomainError } from '../errors/domain-error';
import { merchantFormRefusal } from '../errors/form-answer';
import { formWords } from '../i18n/form-words';
import { aMerchant } from '../../test/factories';
import { COMMON_TIME_ZONES, setMerchantTimeZone, timeZoneChoices } from './merchant-time-zone';

const now = new Date('2026-11-23T06:00:00Z');

async function storedZone(merchantId: number): Promise<string> {
  const [row] = await getDb().select({ timeZone: merchants.timeZone }).from(merchants).where(eq(merchants.id, merchantId));
  return row!.timeZone;
}

async function auditOf(appId: string) {
  return getDb()
    .select({ actor: auditLog.actor, before: auditLog.before, after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.subject, `merchant:${appId}`), eq(auditLog.action, 'merchant.time_zone')));
}

describe('merchant time zone', () => {
  it('is Asia/Shanghai for a new merchant', async () => {
    const merchant = await aMerchant();
    expect(await storedZone(merchant.id)).toBe('Asia/Shanghai');
  });

  it('stores a zone the runtime knows, in its own spelling, and audits the change with before and after', async () => {
    const merchant = await aMerchant();
    expect(await setMerchantTimeZone(getDb(), { merchantId: merchant.id, timeZone: 'UTC', actor: 'account:a@example.com', now })).toBe('UTC');
    expect(await storedZone(merchant.id)).toBe('UTC');
    expect(await setMerchantTimeZone(getDb(), { merchantId: merchant.id, timeZone: ' america/new_york ', actor: 'account:a@example.com', now })).toBe('America/New_York');
    expect(await storedZone(merchant.id)).toBe('America/New_York');
    expect(await auditOf(merchant.appId)).toEqual([
      { actor: 'account:a@example.com', before: { timeZone: 'Asia/Shanghai' }, after: { timeZone: 'UTC' } },
      { actor: 'account:a@example.com', before: { timeZone: 'UTC' }, after: { timeZone: 'America/New_York' } },
    ]);
  });

  it('choosing the zone already set changes nothing and writes no audit entry', async () => {
    const merchant = await aMerchant();
    expect(await setMerchantTimeZone(getDb(), { merchantId: merchant.id, timeZone: 'Asia/Shanghai', actor: 'account:b@example.com', now })).toBe('Asia/Shanghai');
    expect(await auditOf(merchant.appId)).toEqual([]);
  });

  it('refuses a name the runtime does not know (and an offset), naming the field, and keeps the zone it had', async () => {
    const merchant = await aMerchant();
    for (const name of ['Mars/Olympus', '+08:00', 'GMT+8', '', 'Asia/Shanghai; DROP TABLE merchants']) {
      const refused = await setMerchantTimeZone(getDb(), { merchantId: merchant.id, timeZone: name, actor: 'account:c@example.com', now }).catch((error: unknown) => error);
      expect(refused, name).toBeInstanceOf(DomainError);
      expect(refused).toMatchObject({ kind: 'invalid_parameter', message: expect.stringMatching(/^timeZone: /), fieldErrors: { timeZone: { key: 'merchantSettings.notATimeZone' } } });
      // The portal form marks the field.
      expect(merchantFormRefusal(refused as DomainError, await formWords('en')).fieldErrors).toEqual({ timeZone: 'Not a time zone name (e.g. Asia/Shanghai, UTC)' });
      expect(merchantFormRefusal(refused as DomainError, await formWords('zh-CN')).fieldErrors).toEqual({ timeZone: '不是时区名称（如 Asia/Shanghai、UTC）' });
    }
    expect(await storedZone(merchant.id)).toBe('Asia/Shanghai');
    expect(await auditOf(merchant.appId)).toEqual([]);
  });

  it('refuses a merchant that is not there', async () => {
    await expect(setMerchantTimeZone(getDb(), { merchantId: 2_000_000_000, timeZone: 'UTC', actor: 'test', now })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('offers the common zones with their offset now, and the merchant’s own first when it is another', () => {
    const common = timeZoneChoices('Asia/Shanghai', now);
    expect(common.map((choice) => choice.value)).toEqual([...COMMON_TIME_ZONES]);
    expect(common).toContainEqual({ value: 'Asia/Shanghai', label: 'Asia/Shanghai (UTC+08:00)' });
    expect(common).toContainEqual({ value: 'UTC', label: 'UTC (UTC+00:00)' });
    expect(common).toContainEqual({ value: 'America/New_York', label: 'America/New_York (UTC-05:00)' });
    for (const required of ['Asia/Shanghai', 'Asia/Hong_Kong', 'Asia/Singapore', 'Asia/Tokyo', 'Europe/London', 'America/New_York', 'UTC']) {
      expect(common.map((choice) => choice.value)).toContain(required);
    }
    expect(timeZoneChoices('Asia/Kolkata', now)[0]).toEqual({ value: 'Asia/Kolkata', label: 'Asia/Kolkata (UTC+05:30)' });
  });
});
