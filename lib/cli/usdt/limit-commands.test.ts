import { describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { DEFAULT_USDT_MAX_PER_ORDER_MINOR, getUsdtMaxPerOrderMinor } from '../../channels/usdt/max-per-order';
import { parseSingleJsonObject, runAdmin, runAdminJson } from '../run-admin-for-tests';

describe('admin limit', () => {
  it('shows the default limit before any is set', async () => {
    expect(await getUsdtMaxPerOrderMinor(getDb())).toBe(DEFAULT_USDT_MAX_PER_ORDER_MINOR);
    expect(await runAdminJson(['limit', 'show'])).toEqual({ usdtMaxPerOrder: '10000.00' });
  });

  it('sets the USDT per-order limit, stored in minor units, and shows it', async () => {
    expect(await runAdminJson(['limit', 'set', '--usdt-max', '2500.5'])).toEqual({ usdtMaxPerOrder: '2500.50' });
    expect(await getUsdtMaxPerOrderMinor(getDb())).toBe(250_050n);
    expect(await runAdminJson(['limit', 'show'])).toEqual({ usdtMaxPerOrder: '2500.50' });

    expect(await runAdminJson(['limit', 'set', '--usdt-max=0.01'])).toEqual({ usdtMaxPerOrder: '0.01' });
    expect(await getUsdtMaxPerOrderMinor(getDb())).toBe(1n);

    const text = await runAdmin(['limit', 'set', '--usdt-max', '10000']);
    expect(text.exitCode).toBe(0);
    expect(text.stdout.trim()).toBe('USDT per-order limit: 10000.00 USDT');
    expect(await getUsdtMaxPerOrderMinor(getDb())).toBe(1_000_000n);
  });

  it.each(['0', '-1', '1.234', 'abc', '0.00', '1e3', ''])('refuses --usdt-max %j and keeps the limit', async (amount) => {
    const before = await getUsdtMaxPerOrderMinor(getDb());
    const run = await runAdmin(['limit', 'set', `--usdt-max=${amount}`, '--json']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(`option --usdt-max must be an amount greater than 0 with at most 2 decimal places, got ${JSON.stringify(amount)}`);
    expect(parseSingleJsonObject(run.stdout)).toMatchObject({ error: { kind: 'usage' } });
    expect(await getUsdtMaxPerOrderMinor(getDb())).toBe(before);
  });

  it('takes a negative amount as the value of --usdt-max (and refuses it), and names a missing one', async () => {
    const [negative, missing, noValue] = await Promise.all([
      runAdmin(['limit', 'set', '--usdt-max', '-1']),
      runAdmin(['limit', 'set']),
      runAdmin(['limit', 'set', '--usdt-max']),
    ]);
    expect(negative.exitCode).toBe(1);
    expect(negative.stderr).toContain('option --usdt-max must be an amount greater than 0');
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('missing option --usdt-max');
    expect(noValue.exitCode).toBe(1);
    expect(noValue.stderr).toContain('option --usdt-max needs a value');
  });
});
