import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import type pg from 'pg';
import { baseURL } from '../../playwright.config';
import { admin, anOperator, anotherBrowser, merchantIdOf, randomTronAddress, signInAsOperator, signUp, uniqueEmail, withDatabase } from '../factories';

/**
 * What merchants, payers and operators met on the real pages (issue 54's browser review, issue 56's statement probe),
 * read the way they read them: in English and in Chinese, on the project's screen, each page scanned by axe.
 */
const LANGUAGES = ['en', 'zh-CN'] as const;
type Language = (typeof LANGUAGES)[number];
const words = <T,>(language: Language, en: T, zh: T) => (language === 'en' ? en : zh);

async function readIn(page: Page, language: Language): Promise<void> {
  await page.context().addCookies([{ name: 'NEXT_LOCALE', value: language, url: baseURL }]);
}

/** No axe violation of WCAG 2.1 A/AA, of any impact, on the page shown now. */
async function expectAxeClean(page: Page, label: string): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(
    result.violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
    label,
  ).toEqual([]);
}

const token = () => randomBytes(16).toString('hex');
const transactionId = () => randomBytes(32).toString('hex');

/** A CNY order of the merchant on ALIPAY, stored as the service would have left it. */
async function seedCnyOrder(client: pg.Client, merchantId: number, state: { status: 'paid' | 'closed'; closeReason?: string; refundedMinor?: number }) {
  const orderNo = `A${Date.now()}${randomBytes(3).toString('hex')}`;
  const payToken = token();
  await client.query(
    `INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, status, currency, requested_amount_minor, pay_amount_minor, pay_method,
                         pay_token, expires_at, paid_at, paid_via, trade_no, closed_at, close_reason, refund_reserved_minor, refunded_minor)
     VALUES ($1, $2, $3, 'ALIPAY', $4, 'CNY', 1234, 1234, 'web', $5,
             CASE WHEN $4 = 'closed' THEN now() - interval '1 minute' ELSE now() + interval '10 minutes' END,
             CASE WHEN $4 = 'paid' THEN now() END, CASE WHEN $4 = 'paid' THEN 'alipay-notify' END, CASE WHEN $4 = 'paid' THEN '2026120122001' END,
             CASE WHEN $4 = 'closed' THEN now() - interval '1 minute' END, $6::text, $7::bigint, $7::bigint)`,
    [orderNo, merchantId, `PR-${token().slice(0, 10)}`, state.status, payToken, state.closeReason ?? null, state.refundedMinor ?? 0],
  );
  return { orderNo, payToken };
}

test('a statement range the service cannot cover is refused naming the field: 400 over HTTP, an inline error on the form in the browser', async ({ page }, testInfo) => {
  test.setTimeout(300_000); // first visits compile each page in development mode
  await signUp(page, { name: `Statement dates ${testInfo.project.name}`, email: uniqueEmail(`statement-dates-${testInfo.project.name}`) });

  // The probe's request (issue 56): year 1 once answered 500 with a RangeError's stack in the log.
  const probe = await page.request.get('/portal/statement?from=0001-01-01&to=0001-01-02');
  expect(probe.status()).toBe(400);
  expect(await probe.text()).toMatch(/^from: a day from 2020-01-01/);

  for (const language of LANGUAGES) {
    await readIn(page, language);
    // Followed in the browser, the same link lands on the order list's form, in the portal's language, the error on its field.
    await page.goto('/portal/statement?from=0001-01-01&to=0001-01-02');
    await expect(page).toHaveURL(/\/portal\/orders\?statementError=fromOutOfRange/);
    const from = page.locator('#statement-from');
    await expect(from).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('statement-error')).toHaveText(words(language, /^from: a day from 2020-01-01/, /^起始日期：须在 2020-01-01/));
    await expect(from).toHaveAttribute('aria-describedby', /statement-from-error/);
    await expectAxeClean(page, `statement error (${language})`);

    // The end before the start: only the server judges it; the form shows it under "To", the days typed kept.
    await from.fill('2026-03-02');
    await page.locator('#statement-to').fill('2026-03-01');
    await page.getByRole('button', { name: words(language, 'Download statement', '下载对账单') }).click();
    await expect(page).toHaveURL(/statementError=range/);
    await expect(page.locator('#statement-to')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#statement-from')).toHaveValue('2026-03-02');
    await expect(page.getByTestId('statement-error')).toHaveText(words(language, /to must not be before from/, /结束日期不能早于开始日期/));
  }
});

test('refunded orders read refunded everywhere, and an ended order says why it ended with its amount', async ({ page, browser }, testInfo) => {
  test.setTimeout(480_000);
  const appId = await signUp(page, { name: `Standing shop ${testInfo.project.name}`, email: uniqueEmail(`standing-${testInfo.project.name}`) });
  const orders = await withDatabase(async (client) => {
    const merchantId = await merchantIdOf(client, appId);
    return {
      refunded: await seedCnyOrder(client, merchantId, { status: 'paid', refundedMinor: 1234 }),
      partly: await seedCnyOrder(client, merchantId, { status: 'paid', refundedMinor: 234 }),
      closed: await seedCnyOrder(client, merchantId, { status: 'closed', closeReason: 'closed' }),
      cancelled: await seedCnyOrder(client, merchantId, { status: 'closed', closeReason: 'cancelled' }),
      expired: await seedCnyOrder(client, merchantId, { status: 'closed', closeReason: 'expired' }),
    };
  });
  const badgeOf = (orderNo: string) => page.locator(`[data-order-no="${orderNo}"][data-order-standing]`);

  for (const language of LANGUAGES) {
    await readIn(page, language);
    // Under the Refunded filter, each order says how much of it went back.
    await page.goto('/portal/orders?status=refunded');
    await expect(badgeOf(orders.refunded.orderNo)).toHaveText(words(language, 'Fully refunded', '已全额退款'));
    await expect(badgeOf(orders.partly.orderNo)).toHaveText(words(language, 'Partially refunded', '部分退款'));
    await page.goto('/portal/orders');
    await expect(badgeOf(orders.closed.orderNo)).toHaveText(words(language, 'Closed by the merchant', '商户已关闭'));
    await expect(badgeOf(orders.cancelled.orderNo)).toHaveText(words(language, 'Cancelled by the payer', '付款人已取消'));
    await expect(badgeOf(orders.expired.orderNo)).toHaveText(words(language, 'Expired', '已过期'));
    await expectAxeClean(page, `order list (${language})`);

    // The fully refunded order: its badge, and no refund form offering "at most 0.00".
    await page.goto(`/portal/orders/${orders.refunded.orderNo}`);
    await expect(page.getByTestId('order-status')).toHaveText(words(language, 'Fully refunded', '已全额退款'));
    await expect(page.getByTestId('refund-remainder')).toHaveAttribute('data-remainder', 'refunded');
    await expect(page.locator('input[name="amount"]')).toHaveCount(0);
    await expectAxeClean(page, `fully refunded order (${language})`);
    await page.goto(`/portal/orders/${orders.partly.orderNo}`);
    await expect(page.getByTestId('order-status')).toHaveText(words(language, 'Partially refunded', '部分退款'));
    await expect(page.locator('input[name="amount"]')).toHaveCount(1);

    // Who ended it, on its page's status and its timeline.
    await page.goto(`/portal/orders/${orders.cancelled.orderNo}`);
    await expect(page.getByTestId('order-status')).toHaveText(words(language, 'Cancelled by the payer', '付款人已取消'));
    await expect(page.locator('[data-kind="closed"]')).toContainText(words(language, 'Cancelled by the payer at the checkout', '付款人已在收银台取消'));
    await expectAxeClean(page, `cancelled order (${language})`);

    // The payer's page of each ended order: why, and for what amount (never "the time to pay is over" for a close).
    for (const [reason, order] of [['closed', orders.closed], ['cancelled', orders.cancelled], ['expired', orders.expired]] as const) {
      await page.goto(`/pay/${order.payToken}`);
      await expect(page.getByTestId('ended-reason')).toHaveAttribute('data-end-reason', reason);
      await expect(page.getByTestId('ended-amount')).toHaveText(words(language, 'Order amount: ¥12.34', '订单金额：¥12.34'));
      await expect(page.locator('.state-pill')).toHaveText(
        { closed: words(language, 'Closed by the merchant', '商户已关闭'), cancelled: words(language, 'Cancelled by the payer', '付款人已取消'), expired: words(language, 'Expired', '已过期') }[reason],
      );
      if (reason !== 'expired') await expect(page.getByTestId('ended-reason')).not.toContainText(words(language, 'time to pay', '支付时限'));
      await expectAxeClean(page, `checkout ${reason} (${language})`);
    }
  }

  // The console says the same of the merchant's orders.
  const operatorContext = await anotherBrowser(browser, testInfo);
  const operatorPage = await operatorContext.newPage();
  await signInAsOperator(operatorPage, anOperator('standing'));
  await operatorPage.goto(`/operator/merchants/${appId}`);
  await expect(operatorPage.locator(`[data-order-no="${orders.refunded.orderNo}"][data-order-standing]`)).toHaveText('Fully refunded');
  await expect(operatorPage.locator(`[data-order-no="${orders.cancelled.orderNo}"][data-order-standing]`)).toHaveText('Cancelled by the payer');
  await operatorContext.close();
});

test('a short USDT payment shows to the payer, the merchant and the operator, and a USDT order page holds what a refund needs', async ({ page, browser }, testInfo) => {
  test.setTimeout(480_000);
  const appId = await signUp(page, { name: `Short pay ${testInfo.project.name}`, email: uniqueEmail(`short-pay-${testInfo.project.name}`) });
  const address = randomTronAddress();
  admin('address', 'add', '--chain', 'TRC20', address);
  const shortTx = transactionId();
  const paidTx = transactionId();
  const payer = randomTronAddress();
  const seeded = await withDatabase(async (client) => {
    const merchantId = await merchantIdOf(client, appId);
    const { rows } = await client.query<{ id: string }>('SELECT id FROM receiving_addresses WHERE address = $1', [address]);
    const addressId = Number(rows[0]!.id);
    const insertOrder = async (status: 'pending' | 'paid', amountMinor: number, tradeNo: string | null) => {
      const orderNo = `U${Date.now()}${randomBytes(3).toString('hex')}`;
      const payToken = token();
      const { rows: inserted } = await client.query<{ id: string }>(
        `INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, status, currency, requested_amount_minor, pay_amount_minor, chain_type,
                             receiving_address_id, pay_token, expires_at, paid_at, paid_via, trade_no, payer, holds_slot)
         VALUES ($1, $2, $3, 'USDT', $4, 'USDT', $5, $5, '1', $6, $7, now() + interval '30 minutes',
                 CASE WHEN $4 = 'paid' THEN now() END, CASE WHEN $4 = 'paid' THEN 'chain' END, $8::text, CASE WHEN $4 = 'paid' THEN $9::text END, $4 = 'pending')
         RETURNING id`,
        [orderNo, merchantId, `SP-${token().slice(0, 10)}`, status, amountMinor, addressId, payToken, tradeNo, payer],
      );
      return { id: Number(inserted[0]!.id), orderNo, payToken };
    };
    const short = await insertOrder('pending', 1234, null);
    const paid = await insertOrder('paid', 5678, paidTx);
    // 12.00 USDT sent to the 12.34 order's address: the watcher linked it to the order without paying it.
    const { rows: transfer } = await client.query<{ id: string }>(
      `INSERT INTO chain_transfers (chain, transaction_id, event_index, block_number, block_time, from_address, to_address, receiving_address_id, value_raw, verdict, order_id)
       VALUES ('TRC20', $1, 0, 1, now(), $2, $3, $4, 12000000, 'wrong_amount', $5) RETURNING id`,
      [shortTx, payer, address, addressId, short.id],
    );
    return { short, paid, transferId: Number(transfer[0]!.id) };
  });

  for (const language of LANGUAGES) {
    await readIn(page, language);
    // The payer: what arrived of what, the transaction, what to do next; the order still payable in its window.
    await page.goto(`/pay/${seeded.short.payToken}`);
    await expect(page.getByTestId('checkout-pending')).toBeVisible();
    const received = page.getByTestId('unpaid-transfers');
    await expect(received).toContainText(words(language, 'Received 12.00 USDT of 12.34 USDT: 0.34 USDT short', '收到 12.00 USDT，应付 12.34 USDT：少 0.34 USDT'));
    await expect(received.getByRole('link', { name: shortTx })).toHaveAttribute('href', `https://tronscan.org/#/transaction/${shortTx}`);
    await expect(received).toContainText(words(language, 'Do not send the difference', '请勿补转差额'));
    await expectAxeClean(page, `checkout with a short transfer (${language})`);

    // The merchant: the network, the address, the short transfer with its sender and transaction.
    await page.goto(`/portal/orders/${seeded.short.orderNo}`);
    const trail = page.getByTestId('payment-trail');
    await expect(trail.getByTestId('trail-network')).toHaveText(words(language, 'TRC20 (TRON)', 'TRC20（波场）'));
    await expect(trail.getByTestId('trail-address')).toHaveText(address);
    await expect(trail.getByTestId('unpaid-transfer')).toContainText(words(language, 'Received 12.00 USDT of 12.34 USDT: 0.34 USDT short', '收到 12.00 USDT，应付 12.34 USDT：少 0.34 USDT'));
    await expect(trail.getByTestId('unpaid-transfer')).toContainText(payer);
    await expect(trail.getByTestId('unpaid-transaction')).toHaveAttribute('href', `https://tronscan.org/#/transaction/${shortTx}`);
    await expectAxeClean(page, `order page with a short transfer (${language})`);

    // A paid USDT order: who paid, in which transaction, with the explorer's page.
    await page.goto(`/portal/orders/${seeded.paid.orderNo}`);
    await expect(page.getByTestId('trail-payer')).toHaveText(payer);
    await expect(page.getByTestId('trail-transaction')).toHaveAttribute('href', `https://tronscan.org/#/transaction/${paidTx}`);
    await expect(page.getByTestId('trail-address')).toHaveText(address);
    await expectAxeClean(page, `paid USDT order page (${language})`);
  }

  // The operator: completing the short transfer's order warns of the 0.34 it forgives before it is confirmed.
  const operatorContext = await anotherBrowser(browser, testInfo);
  const operatorPage = await operatorContext.newPage();
  await signInAsOperator(operatorPage, anOperator('short-pay'));
  await operatorPage.goto('/operator/attention');
  const row = operatorPage.getByTestId(`transfer-${seeded.transferId}`);
  await row.getByRole('button', { name: `Complete order ${seeded.short.orderNo} by hand` }).click();
  await expect(row.getByTestId('completion-warning')).toContainText('This transfer is 0.34 USDT short: 12.00 USDT arrived of the 12.34 USDT due');
  await expectAxeClean(operatorPage, 'attention list, completing a short transfer');
  await operatorContext.close();
});
