import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { admin, randomTronAddress, anOperator, signInAsOperator, withDatabase, merchantIdOf, seedFailedNotification, seedOrder } from '../factories';
import { signed } from '../../test/beds/contract-signer';

test.describe.configure({ timeout: 240_000 }); // first visits compile pages in development mode

test('addresses: an invalid address is refused naming the field, a valid one is added and disabled; the USDT limit changes', async ({ page }, testInfo) => {
  const operator = anOperator(`addresses-${testInfo.project.name}`);
  await signInAsOperator(page, operator);
  await page.getByRole('link', { name: /USDT receiving addresses/ }).click();
  await page.waitForURL('**/operator/addresses');

  const form = page.getByRole('form', { name: 'Add a receiving address' });
  const field = form.getByLabel('Address');
  await field.fill('TNotAValidAddressAtAll1111111111111');
  await form.getByRole('button', { name: 'Add address' }).click();
  await expect(form.getByRole('alert')).toContainText('Address: TNotAValidAddressAtAll1111111111111 is not a valid TRON address (base58check)');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAttribute('aria-describedby', /new-address-error/);

  const address = randomTronAddress();
  await field.fill(address);
  await form.getByRole('button', { name: 'Add address' }).click();
  await expect(form.getByRole('status')).toContainText('Address added');
  await expect(field).not.toHaveAttribute('aria-invalid', 'true');
  const row = page.getByTestId(`address-${address}`);
  await expect(row.getByTestId('address-state')).toContainText('Enabled');
  await expect(row.getByTestId('address-pending')).toHaveText('0');

  await page.screenshot({ path: testInfo.outputPath('addresses.png'), fullPage: true });
  await row.getByRole('button', { name: `Disable address ${address}` }).click();
  await expect(row.getByTestId('address-state')).toContainText('Disabled');
  expect(admin('address', 'list').addresses.find((entry: { address: string }) => entry.address === address)).toMatchObject({ enabled: false });

  // The per-order limit: a malformed amount is named; a valid one is saved and shown.
  const limit = page.getByRole('form', { name: 'USDT per-order limit' });
  try {
    await limit.getByLabel(/Maximum per order/).fill('12.345');
    await limit.getByRole('button', { name: 'Save limit' }).click();
    await expect(limit.getByRole('alert')).toContainText('at most 2 decimal places');
    await limit.getByLabel(/Maximum per order/).fill('2500.5');
    await limit.getByRole('button', { name: 'Save limit' }).click();
    await expect(page.getByTestId('usdt-limit')).toContainText('2500.50 USDT');
    expect(admin('limit', 'show')).toEqual({ usdtMaxPerOrder: '2500.50' });
  } finally {
    admin('limit', 'set', '--usdt-max', '10000'); // other specs pay larger amounts
  }

  await page.goto(`/operator/audit?action=address.&actor=${encodeURIComponent(operator.email)}`);
  const audit = page.getByRole('table', { name: 'Audit log' });
  await expect(audit.getByRole('row').filter({ hasText: 'address.disable' })).toContainText(address);
  await expect(audit.getByRole('row').filter({ hasText: 'address.add' })).toContainText(address);
});

test('merchant permission: the operator stops a merchant\'s orders after confirming, and the open API answers 1004', async ({ page, request }, testInfo) => {
  const operator = anOperator(`permission-${testInfo.project.name}`);
  const merchant = admin('merchant', 'create', '--name', `Permission ${testInfo.project.name} ${Date.now()}`, '--orders', 'on');
  admin('address', 'add', '--chain', 'TRC20', randomTronAddress());
  const submit = (merchantOrderNo: string) =>
    request.post('/v1/api/open/order/submit', {
      data: signed({ appId: merchant.appId, merchantOrderNo, pay_usdt: '1.23', chainType: '1', productName: 'P', notifyUrl: 'https://merchant.example/n', redirectUrl: 'https://merchant.example/r' }, merchant.appSecret),
    });
  expect((await (await submit(`P-${Date.now()}-a`)).json()).code).toBe(0);

  await signInAsOperator(page, operator);
  await page.goto('/operator/merchants');
  await page.getByRole('searchbox', { name: 'Name or AppID' }).fill(merchant.appId);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.waitForURL(/q=mch_/);
  const row = page.getByTestId(`merchant-${merchant.appId}`);
  await expect(page.getByRole('table', { name: 'Merchants' }).getByRole('row')).toHaveCount(2); // header + the one match
  await expect(row.getByTestId('order-permission')).toContainText('Orders on');

  await row.getByRole('button', { name: `Stop orders for ${merchant.name}` }).click();
  await expect(row.getByText('The API will answer 1004')).toBeVisible();
  await row.getByRole('button', { name: 'Cancel' }).click();
  await expect(row.getByTestId('order-permission')).toContainText('Orders on');
  await row.getByRole('button', { name: `Stop orders for ${merchant.name}` }).click();
  await row.getByRole('button', { name: 'Confirm stop' }).click();
  await expect(row.getByTestId('order-permission')).toContainText('Orders off');

  const refused = await (await submit(`P-${Date.now()}-b`)).json();
  expect(refused).toMatchObject({ code: 1004, data: null });

  // The merchant's page: AppID and the secret's metadata, never the secret.
  await row.getByRole('link', { name: merchant.name }).click();
  await page.waitForURL(`**/operator/merchants/${merchant.appId}`);
  await expect(page.getByTestId('merchant-app-id')).toHaveText(merchant.appId);
  await expect(page.getByTestId('secret-metadata')).toContainText('never shown here');
  await expect(page.getByRole('table', { name: 'Recent orders' }).getByRole('row')).toHaveCount(2);
  expect(await page.content()).not.toContain(merchant.appSecret);

  await page.screenshot({ path: testInfo.outputPath('merchant.png'), fullPage: true });
  await page.goto(`/operator/audit?action=merchant.orders_off&actor=${encodeURIComponent(operator.email)}`);
  await expect(page.getByRole('table', { name: 'Audit log' }).getByRole('row').filter({ hasText: `merchant:${merchant.appId}` })).toContainText('"orderPermission": false');
});

test('attention: a failed notification is resent; an unmatched transfer is dismissed with a note and the dismissal is in the audit log', async ({ page }, testInfo) => {
  const operator = anOperator(`attention-${testInfo.project.name}`);
  const merchant = admin('merchant', 'create', '--name', `Attention ${testInfo.project.name}`, '--orders', 'on');
  const pool = admin('address', 'add', '--chain', 'TRC20', randomTronAddress());
  const { orderNo, notificationId } = await withDatabase(async (client) => {
    const order = await seedOrder(client, { merchantId: await merchantIdOf(client, merchant.appId), addressId: pool.id, amountMinor: 4_321, status: 'paid' });
    return { orderNo: order.orderNo, notificationId: await seedFailedNotification(client, order.id) };
  });

  // A transfer to a pool address where no order is open: the chain watcher records it as unmatched.
  const amount = `${1 + Math.floor(Math.random() * 90)}.${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`;
  execFileSync(process.execPath, ['dist/cli/sandbox.js', 'tron', 'transfer', '--to', pool.address, '--amount', amount, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, EMBEDDED_PG_DIR: process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg' },
  });

  await signInAsOperator(page, operator);
  await page.getByRole('link', { name: /Payments needing attention/ }).click();
  await page.waitForURL('**/operator/attention');

  // The failed notification: resend starts a new cycle and the item leaves the list.
  const notification = page.getByTestId(`notification-${notificationId}`);
  await expect(notification).toContainText(orderNo);
  await expect(notification).toContainText('HTTP 503 from the merchant');
  await notification.getByRole('button', { name: `Resend notification of order ${orderNo}` }).click();
  await expect(notification).toHaveCount(0);
  const cycles = await withDatabase(async (client) => (await client.query('SELECT n.cycle FROM notifications n JOIN orders o ON o.id = n.order_id WHERE o.order_no = $1 ORDER BY n.cycle', [orderNo])).rows);
  expect(cycles.map((row) => row.cycle)).toEqual([1, 2]);

  // The unmatched transfer shows once the sandbox chain has confirmed it and the watcher has read it.
  const transfers = page.getByRole('table', { name: 'USDT transfers needing attention' });
  const transfer = page.getByRole('row').filter({ hasText: pool.address });
  await expect(async () => {
    await page.reload();
    await expect(transfer).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(transfers).toBeVisible();
  await expect(transfer).toContainText('Unmatched');
  await expect(transfer).toContainText(amount);
  const transferId = (await transfer.getAttribute('data-testid'))!.replace('transfer-', '');
  await page.screenshot({ path: testInfo.outputPath('attention.png'), fullPage: true });

  await transfer.getByRole('button', { name: `Dismiss transfer ${transferId}` }).click();
  const dismiss = transfer.getByRole('form', { name: `Dismiss transfer ${transferId}` });
  await dismiss.getByRole('button', { name: 'Confirm dismiss' }).click();
  await expect(dismiss.getByRole('alert')).toContainText('a note is required');
  await expect(dismiss.getByLabel(/Note/)).toHaveAttribute('aria-invalid', 'true');
  const note = `refunded to the sender ${Date.now()}`;
  await dismiss.getByLabel(/Note/).fill(note);
  await dismiss.getByRole('button', { name: 'Confirm dismiss' }).click();
  await expect(page.getByTestId(`transfer-${transferId}`)).toHaveCount(0);

  await page.getByRole('link', { name: 'Audit log' }).click();
  await page.waitForURL('**/operator/audit');
  await page.getByLabel('Action', { exact: true }).fill('attention.dismiss');
  await page.getByLabel('Actor', { exact: true }).fill(operator.email);
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/action=attention.dismiss/);
  const entry = page.getByRole('table', { name: 'Audit log' }).getByRole('row').filter({ hasText: `transfer:${transferId}` });
  await expect(entry).toContainText(note);
  await expect(entry).toContainText(operator.email);
  await expect(entry).toContainText('"dismissed": true');

  await page.goto(`/operator/audit?action=notification.resend&actor=${encodeURIComponent(operator.email)}`);
  await expect(page.getByRole('table', { name: 'Audit log' }).getByRole('row').filter({ hasText: `order:${orderNo}` })).toContainText('"cycle": 2');
});
