import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { merchants } from '../db/schema';
import { findMerchantForSigning } from '../merchants/merchants';
import { sign, verifySignature } from '../signing';
import { parseSingleJsonObject, runAdmin, runAdminJson } from './run-admin-for-tests';

describe('admin merchant create', () => {
  it('creates a merchant and prints its AppSecret once, which then signs requests', async () => {
    const created = await runAdminJson(['merchant', 'create', '--name', 'Acme Shop', '--orders', 'on']);
    expect(Object.keys(created).sort()).toEqual(['appId', 'appSecret', 'name', 'orderPermission']);
    expect(created).toMatchObject({ name: 'Acme Shop', orderPermission: true });
    const appId = created.appId as string;
    const appSecret = created.appSecret as string;
    expect(appId).toMatch(/^mch_[0-9a-f]{16}$/);

    const forSigning = await findMerchantForSigning(getDb(), appId);
    expect(forSigning?.appSecret).toBe(appSecret);
    expect(forSigning?.merchant).toMatchObject({ name: 'Acme Shop', orderPermission: true });
    const fields = { appId, merchantOrderNo: 'A1', pay_usdt: '12.50' };
    expect(verifySignature(fields, forSigning!.appSecret, sign(fields, appSecret))).toBe(true);

    const [row] = await getDb().select().from(merchants).where(eq(merchants.appId, appId));
    expect(row!.appSecretEncrypted).not.toBe(appSecret);
    expect(row!.appSecretEncrypted).not.toContain(appSecret);
  });

  it('creates a merchant without order permission with --orders off', async () => {
    const created = await runAdminJson(['merchant', 'create', '--name', 'Quiet Shop', '--orders', 'off']);
    expect(created.orderPermission).toBe(false);
    expect((await findMerchantForSigning(getDb(), created.appId as string))?.merchant.orderPermission).toBe(false);
  });

  it('prints a human-readable summary without --json', async () => {
    const run = await runAdmin(['merchant', 'create', '--name', 'Text Shop', '--orders', 'on']);
    expect(run.exitCode).toBe(0);
    const appId = /appId:\s+(mch_[0-9a-f]+)/.exec(run.stdout)?.[1];
    const appSecret = /appSecret:\s+(\S+)/.exec(run.stdout)?.[1];
    expect(appId).toBeDefined();
    expect((await findMerchantForSigning(getDb(), appId!))?.appSecret).toBe(appSecret);
    expect(() => JSON.parse(run.stdout)).toThrow();
  });

  it('refuses a missing or empty --name and an --orders other than on|off', async () => {
    const [noName, emptyName, badOrders] = await Promise.all([
      runAdmin(['merchant', 'create', '--orders', 'on']),
      runAdmin(['merchant', 'create', '--name', '  ', '--orders', 'on']),
      runAdmin(['merchant', 'create', '--name', 'X', '--orders', 'maybe']),
    ]);
    expect(noName.exitCode).toBe(1);
    expect(noName.stderr).toContain('missing option --name');
    expect(emptyName.exitCode).toBe(1);
    expect(emptyName.stderr).toContain('--name must not be empty');
    expect(badOrders.exitCode).toBe(1);
    expect(badOrders.stderr).toContain('--orders must be on or off');
    expect(await getDb().$count(merchants, eq(merchants.name, 'X'))).toBe(0);
  });
});

describe('admin merchant orders', () => {
  it('turns order permission off and on again', async () => {
    const { appId } = await runAdminJson(['merchant', 'create', '--name', 'Toggle Shop', '--orders', 'on']);

    expect(await runAdminJson(['merchant', 'orders', 'off', '--app-id', appId as string])).toEqual({ appId, orderPermission: false });
    expect((await findMerchantForSigning(getDb(), appId as string))?.merchant.orderPermission).toBe(false);

    expect(await runAdminJson(['merchant', 'orders', 'on', '--app-id', appId as string])).toEqual({ appId, orderPermission: true });
    expect((await findMerchantForSigning(getDb(), appId as string))?.merchant.orderPermission).toBe(true);
  });

  it('fails with exit code 1 for an unknown appId', async () => {
    const run = await runAdmin(['merchant', 'orders', 'on', '--app-id', 'mch_doesnotexist', '--json']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('merchant not found: mch_doesnotexist');
    expect(parseSingleJsonObject(run.stdout)).toEqual({ error: { kind: 'rejected', message: 'merchant not found: mch_doesnotexist' } });
  });

  it('names the missing --app-id and the missing or bad on|off', async () => {
    const [noAppId, noSetting, badSetting] = await Promise.all([
      runAdmin(['merchant', 'orders', 'off']),
      runAdmin(['merchant', 'orders', '--app-id', 'mch_x']),
      runAdmin(['merchant', 'orders', 'sometimes', '--app-id', 'mch_x']),
    ]);
    expect(noAppId.exitCode).toBe(1);
    expect(noAppId.stderr).toContain('missing option --app-id');
    expect(noSetting.exitCode).toBe(1);
    expect(noSetting.stderr).toContain('missing argument <on|off>');
    expect(badSetting.exitCode).toBe(1);
    expect(badSetting.stderr).toContain('on|off must be on or off, got "sometimes"');
  });
});
