import { expect, test } from '@playwright/test';
import { connectE2eDatabase, signUp, uniqueEmail } from '../factories';

test('the order list pages by keyset: Older and Newer walk 45 orders 20 at a time, each once, newest first', async ({ page }, testInfo) => {
  test.setTimeout(240_000); // first visits compile each page in development mode
  const appId = await signUp(page, { name: `Pager ${testInfo.project.name}`, email: uniqueEmail(`pager-${testInfo.project.name}`) });
  const client = await connectE2eDatabase();
  let expected: string[];
  try {
    // 45 closed ALIPAY orders, a dozen of them created in the same microsecond (the id breaks the tie).
    const { rows } = await client.query<{ order_no: string }>(
      `INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, status, currency, requested_amount_minor, pay_amount_minor,
                           pay_token, expires_at, closed_at, created_at)
       SELECT 'PG' || $2 || lpad(g::text, 3, '0'), m.id, 'PAGER-' || g, 'ALIPAY', 'closed', 'CNY', 100 + g, 100 + g,
              md5($2 || g) || md5(g || $2), now(), now(),
              CASE WHEN g % 4 = 0 THEN timestamptz '2026-11-01T00:00:00.123456Z' ELSE now() - make_interval(mins => g) END
       FROM merchants m, generate_series(1, 45) AS g WHERE m.app_id = $1
       RETURNING order_no`,
      [appId, `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36)}`],
    );
    expect(rows).toHaveLength(45);
    const ordered = await client.query<{ order_no: string }>(
      `SELECT order_no FROM orders WHERE merchant_id = (SELECT id FROM merchants WHERE app_id = $1) ORDER BY created_at DESC, id DESC`,
      [appId],
    );
    expected = ordered.rows.map((row) => row.order_no);
  } finally {
    await client.end();
  }

  const shown = () => page.locator('tbody tr td:nth-child(2)').allTextContents();
  await page.goto('/portal/orders');
  const pages: string[][] = [];
  pages.push((await shown()).map((text) => text.trim()));
  await expect(page.getByRole('link', { name: /Newer/ })).toHaveCount(0);
  for (let index = 0; index < 2; index += 1) {
    await page.getByRole('link', { name: /Older/ }).click();
    await page.waitForURL(/before=/);
    await expect(page.getByTestId('orders-total')).toContainText(index === 0 ? '20 orders' : '5 orders');
    pages.push((await shown()).map((text) => text.trim()));
  }
  await expect(page.getByRole('link', { name: /Older/ })).toHaveCount(0);
  expect(pages.map((rows) => rows.length)).toEqual([20, 20, 5]);
  expect(pages.flat()).toEqual(expected);

  await page.getByRole('link', { name: /Newer/ }).click();
  await page.waitForURL(/after=/);
  expect((await shown()).map((text) => text.trim())).toEqual(pages[1]);
});
