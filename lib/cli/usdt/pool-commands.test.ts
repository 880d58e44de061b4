import { describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { aMerchant } from '../../../test/factories';
import { parseSingleJsonObject, runAdmin } from '../run-admin-for-tests';
import { findMerchantPoolLimits } from '../../channels/usdt/merchant-pool-limits';

describe('admin pool set: what it refuses, naming the option', () => {
  it.each([
    [['--held-slots', '0'], 'option --held-slots must be a whole number from 1 to 9999999, "default" or "none", got "0"'],
    [['--amount-slots', '1.5'], 'option --amount-slots must be a whole number from 1 to 9999999, "default" or "none", got "1.5"'],
    [['--amount-slots', 'unlimited'], 'option --amount-slots must be a whole number from 1 to 9999999, "default" or "none", got "unlimited"'],
    [[], 'give --held-slots, --amount-slots or both'],
  ])('%j', async (options, message) => {
    const merchant = await aMerchant();
    const run = await runAdmin(['pool', 'set', '--app-id', merchant.appId, ...options, '--json']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(message);
    expect(parseSingleJsonObject(run.stdout)).toMatchObject({ error: { kind: 'usage' } });
    expect(await findMerchantPoolLimits(getDb(), merchant.appId)).toEqual({ appId: merchant.appId, maxHeldSlots: 'default', maxAmountSlots: 'default' });
  });

  it('an unknown merchant', async () => {
    const run = await runAdmin(['pool', 'set', '--app-id', 'mch_nobody', '--held-slots', '10']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('merchant not found: mch_nobody');
  });

  it('keeps the limit it is not given', async () => {
    const merchant = await aMerchant();
    await runAdmin(['pool', 'set', '--app-id', merchant.appId, '--held-slots', '40']);
    const run = await runAdmin(['pool', 'set', '--app-id', merchant.appId, '--amount-slots', 'none']);
    expect(run.stdout.trim()).toBe(`merchant ${merchant.appId}: held slots per network 40, slots of one amount none`);
  });
});
