import { expect, test, type Page } from '@playwright/test';
import { followNavLink, signUp, uniqueEmail, withDatabase } from '../factories';

/** 01:30 on 23 November in Asia/Shanghai, still 22 November in UTC (long enough ago to stay out of the overview's 7 days). */
const CREATED_AT = '2025-11-22T17:30:00Z';

/** The calendar day (`YYYY-MM-DD`) an instant falls on in the zone. */
function dayIn(timeZone: string, instant: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(instant);
}

/** A closed ALIPAY order of the merchant created at `createdAt` (the list only reads its row). */
async function anOrderCreatedAt(appId: string, merchantOrderNo: string, createdAt: string): Promise<void> {
  await withDatabase(async (client) => {
    await client.query(
      `INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, status, currency, requested_amount_minor, pay_amount_minor,
                           pay_token, expires_at, closed_at, created_at)
       SELECT 'TZ' || md5($2), m.id, $2, 'ALIPAY', 'closed', 'CNY', 100, 100, md5($2) || md5($2 || 'token'), $3, $3, $3
       FROM merchants m WHERE m.app_id = $1`,
      [appId, merchantOrderNo, createdAt],
    );
  });
}

/** The order's created time as the list shows it (on a phone it sits under the order number), and its hover title. */
async function shownCreatedTime(page: Page, merchantOrderNo: string): Promise<{ text: string; title: string }> {
  // Search matches by prefix: the row whose own order link is exactly this number.
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: merchantOrderNo, exact: true }) });
  const time = row.getByTestId('local-time').filter({ visible: true }).first();
  return { text: (await time.textContent())!.trim(), title: (await time.getAttribute('title'))! };
}

/** The overview chart's row of one day (its accessible table: day, created, paid). */
function chartRow(page: Page, zone: string, day: string) {
  const table = page.getByRole('table', { name: `Orders per day (${zone})` });
  return table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: day, exact: true }) });
}

/** Filters the list by one calendar day through the form, as the merchant would. */
async function filterByDay(page: Page, zone: string, day: string): Promise<void> {
  await page.goto('/portal/orders');
  await expect(page.getByTestId('orders-date-zone')).toContainText(`Dates are calendar days in ${zone}`);
  // The statement's form on the same page has its own From and To.
  const filter = page.locator('form').filter({ has: page.getByRole('button', { name: 'Filter' }) });
  // On a phone the filters fold behind their link, so the first order is on the first screen.
  if (!(await filter.isVisible())) await page.getByTestId('phone-form-links').getByRole('link', { name: 'Filter orders' }).click();
  await filter.getByLabel('From', { exact: true }).fill(day);
  await filter.getByLabel('To', { exact: true }).fill(day);
  await filter.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(new RegExp(`from=${day}&to=${day}`));
}

test('a merchant picks its time zone: times, the date filter and the overview follow it', async ({ page }, testInfo) => {
  test.setTimeout(240_000); // first visits compile each page in development mode
  const appId = await signUp(page, { name: `Zone shop ${testInfo.project.name}`, email: uniqueEmail(`zone-${testInfo.project.name}`) });
  const merchantOrderNo = `TZ-${testInfo.project.name}-${Date.now()}`;
  await anOrderCreatedAt(appId, merchantOrderNo, CREATED_AT);
  // An order at 00:01 today in Asia/Shanghai, which is still yesterday (Shanghai's) in UTC.
  const todayInShanghai = dayIn('Asia/Shanghai', new Date());
  const justAfterShanghaiMidnight = new Date(`${todayInShanghai}T00:01:00+08:00`);
  await anOrderCreatedAt(appId, `${merchantOrderNo}-today`, justAfterShanghaiMidnight.toISOString());

  // A new merchant reads its back office in Asia/Shanghai, UTC on hover.
  await page.goto(`/portal/orders?q=${merchantOrderNo}`);
  expect(await shownCreatedTime(page, merchantOrderNo)).toEqual({ text: '2025-11-23 01:30:00', title: '2025-11-22 17:30:00 UTC' });
  await filterByDay(page, 'Asia/Shanghai', '2025-11-23');
  await expect(page.getByRole('link', { name: merchantOrderNo, exact: true })).toBeVisible();
  await filterByDay(page, 'Asia/Shanghai', '2025-11-22');
  await expect(page.getByText('No orders match.')).toBeVisible();

  await page.goto('/portal');
  await expect(chartRow(page, 'Asia/Shanghai', todayInShanghai)).toHaveText(new RegExp(`^${todayInShanghai}\\s*1\\s*0$`));

  // The merchant switches to UTC on its account page.
  await followNavLink(page, 'Account');
  await page.waitForURL('**/portal/account');
  const zone = page.getByRole('combobox', { name: 'Time zone' });
  await expect(zone).toHaveValue('Asia/Shanghai');
  await zone.selectOption('UTC');
  await page.getByRole('button', { name: 'Save time zone' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Time zone saved' })).toContainText('UTC');
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Time zone' })).toHaveValue('UTC');

  // The same order, 8 hours earlier on the clock and on the previous calendar day.
  await page.goto(`/portal/orders?q=${merchantOrderNo}`);
  expect(await shownCreatedTime(page, merchantOrderNo)).toEqual({ text: '2025-11-22 17:30:00', title: '2025-11-22 17:30:00 UTC' });
  await filterByDay(page, 'UTC', '2025-11-22');
  await expect(page.getByRole('link', { name: merchantOrderNo, exact: true })).toBeVisible();
  await filterByDay(page, 'UTC', '2025-11-23');
  await expect(page.getByText('No orders match.')).toBeVisible();

  // The overview's days are UTC days now: the order of Shanghai's 00:01 is on the day before.
  const yesterdayOfShanghai = new Date(Date.parse(`${todayInShanghai}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  await page.goto('/portal');
  await expect(chartRow(page, 'UTC', yesterdayOfShanghai)).toHaveText(new RegExp(`^${yesterdayOfShanghai}\\s*1\\s*0$`));

  // Stored, and written to the audit log with what it was before.
  await withDatabase(async (client) => {
    const { rows } = await client.query(`SELECT time_zone FROM merchants WHERE app_id = $1`, [appId]);
    expect(rows).toEqual([{ time_zone: 'UTC' }]);
    const audit = await client.query(`SELECT action, before, after FROM audit_log WHERE subject = $1 AND action = 'merchant.time_zone'`, [`merchant:${appId}`]);
    expect(audit.rows).toEqual([{ action: 'merchant.time_zone', before: { timeZone: 'Asia/Shanghai' }, after: { timeZone: 'UTC' } }]);
  });
});
