import { expect, test } from '@playwright/test';
import { admin, anOperator, merchantIdOf, randomTronAddress, seedOrder, signInAsOperatorOverHttp, withDatabase } from '../factories';

/**
 * The health page's receiving pool as the fair-use rule reads it: who may place orders on it and what each may hold
 * by default, and where a merchant holds all its share of an amount (its next order of that amount is 1010).
 */
test('the health page shows who shares the USDT pool, the default share, and the amounts at a merchant’s share', async ({ page }) => {
  test.setTimeout(240_000); // the first visit compiles the console in dev mode (on a busy machine, minutes)
  const merchant = admin('merchant', 'create', '--name', 'Pool share shop', '--orders', 'on');
  admin('pool', 'set', '--app-id', merchant.appId, '--amount-slots', '1', '--reason', 'one order per amount');
  const address = admin('address', 'add', '--chain', 'TRC20', randomTronAddress());
  const { merchants, addresses } = await withDatabase(async (client) => {
    const { rows } = await client.query<{ merchants: number; addresses: number }>(
      `SELECT (SELECT count(*)::int FROM merchants WHERE order_permission) AS merchants,
              (SELECT count(*)::int FROM receiving_addresses WHERE enabled AND chain = 'TRC20') AS addresses`,
    );
    return rows[0]!;
  });

  // Signed in over HTTP (the page's context shares the cookie): the page under test is the health page, and the
  // dev server compiles only it.
  const operator = anOperator('pool-share');
  await signInAsOperatorOverHttp(page.request, operator);
  await page.goto('/operator/health', { timeout: 180_000 });
  await expect(page.getByTestId('pool-share-TRC20')).toHaveText(
    `TRC20: ${merchants} merchants may place orders; by default each may hold ${addresses} of the ${2 * addresses} slots of an amount and the next cent, and 500 slots in all.`,
  );
  const band = page.getByTestId('pool-TRC20-1000+');
  const atShareBefore = Number(await band.getByTestId('pool-at-share').innerText());

  // The merchant's one order of a large amount takes its whole share of it (amount-slots 1).
  await withDatabase(async (client) => {
    const amountMinor = 200_000 + Math.floor(Math.random() * 700_000);
    await seedOrder(client, { merchantId: await merchantIdOf(client, merchant.appId), addressId: address.id, amountMinor, status: 'pending' });
  });
  await page.goto('/operator/health');
  await expect(band.getByTestId('pool-at-share')).toHaveText(String(atShareBefore + 1));
});
