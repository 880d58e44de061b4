import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { signUp, uniqueEmail, withDatabase } from '../factories';

test('a merchant downloads a statement of a date range as CSV: BOM, its time zone, amounts as written, Chinese intact', async ({ page }, testInfo) => {
  test.setTimeout(240_000); // first visits compile each page in development mode
  const appId = await signUp(page, { name: `Statement shop ${testInfo.project.name}`, email: uniqueEmail(`statement-${testInfo.project.name}`) });
  const merchantOrderNo = `ST-${testInfo.project.name}-${Date.now()}`;
  // 01:30 on 23 November in Asia/Shanghai (the merchant's zone), still 22 November in UTC; paid a minute later.
  await withDatabase((client) =>
    client.query(
      `INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, status, currency, requested_amount_minor, pay_amount_minor, product_name,
                           pay_token, expires_at, created_at, paid_at, trade_no)
       SELECT 'ST' || md5($2), m.id, $2, 'ALIPAY', 'paid', 'CNY', 1250, 1250, '年度会员·金卡', md5($2) || md5($2 || 'token'), $3, $3, $3::timestamptz + interval '1 minute', '2025112222001'
       FROM merchants m WHERE m.app_id = $1`,
      [appId, merchantOrderNo, '2025-11-22T17:30:00Z'],
    ),
  );

  // The form's link (#statement): on a phone the form is folded until it is followed.
  await page.goto('/portal/orders#statement');
  const form = page.getByRole('form', { name: 'Download a statement (CSV)' });
  await form.getByLabel('From').fill('2025-11-23');
  await form.getByLabel('To').fill('2025-11-23');
  const [download] = await Promise.all([page.waitForEvent('download'), form.getByRole('button', { name: 'Download statement' }).click()]);
  expect(download.suggestedFilename()).toBe(`statement-${appId}-2025-11-23-2025-11-23.csv`);
  const bytes = await readFile((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(3)).split('\r\n').filter((line) => line !== '');
  expect(lines[0]).toBe('Type,Created,Platform order no.,Merchant order no.,Channel,Status,Currency,Amount,Amount to pay,Paid,Upstream trade no.,Product,Platform refund no.,Merchant refund no.,Refund amount,Refunded');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toMatch(new RegExp(`^Order,2025-11-23 01:30:00,ST[0-9a-f]{32},${merchantOrderNo},ALIPAY,Paid,CNY,12\\.50,12\\.50,2025-11-23 01:31:00,2025112222001,年度会员·金卡,,,,$`));

  // The day before (in Shanghai) holds nothing: the header alone.
  const response = await page.request.get('/portal/statement?from=2025-11-22&to=2025-11-22');
  expect(response.headers()['content-type']).toBe('text/csv; charset=utf-8');
  expect((await response.text()).split('\r\n').filter((line) => line !== '')).toHaveLength(1);
  const refused = await page.request.get('/portal/statement?from=2025-11-23&to=2025-11-22');
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain('to must not be before from');
});
