import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { accountThrottleKeys } from '../../lib/accounts/sign-in-throttle';
import { beijingDayBounds, beijingDayOf } from '../../lib/reconciliation/beijing-day';
import { formatMinorUnits } from '../../lib/money/decimal-amount';
import { signed } from '../../test/beds/contract-signer';
import { admin, anOperator, signInAsOperator, signUp, uniqueEmail, withDatabase } from '../factories';
import { expectAxeClean } from '../axe-clean';

test.describe.configure({ timeout: 600_000 }); // first visits compile pages in development mode

const LOCALES = ['en', 'zh-CN'] as const;

/** The console's own words in each language (the catalogue), with ICU values filled in. */
function wordsOf(locale: string) {
  const catalogue = JSON.parse(readFileSync(`messages/${locale}/console.json`, 'utf8')) as { operatorActions: Record<string, string>; reconciliation: Record<string, string> };
  const fill = (text: string, values: Record<string, string> = {}) => text.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
  return { actions: (key: string, values?: Record<string, string>) => fill(catalogue.operatorActions[key]!, values), reconciliation: (key: string) => catalogue.reconciliation[key]! };
}

async function rememberLocale(page: Page, locale: string): Promise<void> {
  await page.context().addCookies([{ name: 'NEXT_LOCALE', value: locale, domain: new URL(page.url()).hostname, path: '/' }]);
}

async function auditActions(actor: string): Promise<string[]> {
  return withDatabase(async (client) => (await client.query<{ action: string }>('SELECT action FROM audit_log WHERE actor = $1 ORDER BY id', [actor])).rows.map((row) => row.action));
}

for (const locale of LOCALES) {
  test(`routine operator work from the console (${locale}): pool share, sign-in unlock, a day reconciled again, a held EVM chain resumed; each audited, axe clean`, async ({ page, request }, testInfo) => {
    const words = wordsOf(locale);
    // A merchant whose owner's sign-ins were locked (past the daily cap), an order of it paid today on ALIPAY.
    const email = uniqueEmail(`console-actions-${testInfo.project.name}-${locale}`);
    const appId = await signUp(page, { name: `Console actions ${locale}`, email });
    const shop = admin('merchant', 'create', '--name', `Console actions shop ${locale}`, '--orders', 'on');
    admin('credential', 'add', '--app-id', shop.appId, '--channel', 'ALIPAY', '--sandbox', '--approve', '--enable');
    const merchantOrderNo = `E2E-ACT-${locale}-${Date.now()}`;
    const submit = await request.post('/v1/api/open/order/submit', {
      data: signed({ appId: shop.appId, merchantOrderNo, payType: 'ALIPAY', payMethod: 'web', amount: '19.90', productName: '年度会员', notifyUrl: 'https://merchant.example/n', redirectUrl: 'https://merchant.example/r' }, shop.appSecret),
    });
    expect((await submit.json()).code).toBe(0);
    admin('order', 'complete', '--app-id', shop.appId, '--merchant-order-no', merchantOrderNo, '--reason', 'paid at the counter');
    await withDatabase((client) =>
      client.query(`INSERT INTO sign_in_throttle (key, failures, window_started_at, updated_at) SELECT key, 1000, now(), now() FROM unnest($1::text[]) AS key ON CONFLICT (key) DO UPDATE SET failures = 1000`, [accountThrottleKeys(email).keys]),
    );
    await page.context().clearCookies();
    const operator = anOperator(`console-actions-${locale.toLowerCase()}`);
    await signInAsOperator(page, operator);
    await rememberLocale(page, locale);

    // The merchant's share of the USDT pool: a bad value is refused on its field, a good one set.
    await page.goto(`/operator/merchants/${appId}`);
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    const pool = page.getByRole('form', { name: words.actions('poolTitle') });
    await pool.getByLabel(words.actions('heldSlots')).fill('twelve');
    await pool.getByRole('button', { name: words.actions('poolButton') }).click();
    await expect(pool.getByLabel(words.actions('heldSlots'))).toHaveAttribute('aria-invalid', 'true');
    await expect(pool.getByRole('alert')).toHaveText(words.actions('poolLimitInvalid'));
    await pool.getByLabel(words.actions('heldSlots')).fill('12');
    await pool.getByLabel(words.actions('amountSlots')).fill('none');
    await pool.getByLabel(words.actions('reason')).fill('a promotion this week');
    await pool.getByRole('button', { name: words.actions('poolButton') }).click();
    await expect(pool.getByRole('status')).toHaveText(words.actions('poolShareDone', { held: '12', amount: 'none' }));
    await expect(page.getByTestId('pool-share')).toHaveText(words.actions('poolNow', { held: '12', amount: 'none' }));

    // Its owner's sign-ins unlocked.
    const unlock = page.getByRole('form', { name: words.actions('unlockLabel', { email }) });
    await unlock.getByLabel(words.actions('reason')).fill('the owner called');
    await unlock.getByRole('button', { name: words.actions('unlockButton') }).click();
    await expect(unlock.getByRole('status')).toContainText(email.toLowerCase()); // accounts keep their email in lower case
    expect(await withDatabase(async (client) => (await client.query('SELECT key FROM sign_in_throttle WHERE key = ANY($1)', [accountThrottleKeys(email).keys])).rowCount)).toBe(0);
    await expectAxeClean(page, `merchant page (${locale})`);

    // Today reconciled again: no bill yet, which is no error, and our side counts today's paid orders as they stand.
    const today = beijingDayOf(new Date());
    await page.goto(`/operator/reconciliation?day=${today}`);
    const rerun = page.getByRole('form', { name: words.actions('rerunLabel', { day: today }) });
    await rerun.getByRole('button', { name: words.actions('rerunButton', { day: today }) }).click();
    await expect(rerun.getByRole('status')).toContainText(today, { timeout: 120_000 });
    // Alipay is reconciled per account (one run each): none has a bill yet, none reads as an error, and together
    // their "here" side counts today's paid ALIPAY orders. The page refreshes after the answer, and before that it
    // holds an earlier rerun's runs (an account added since had none): it is read once it shows every run recorded.
    const runCount = await withDatabase(
      async (client) => (await client.query<{ runs: number }>(`SELECT count(*)::int AS runs FROM reconciliation_runs WHERE day = $1 AND channel = 'ALIPAY'`, [today])).rows[0]!.runs,
    );
    expect(runCount).toBeGreaterThan(0);
    const runs = page.getByTestId('run-ALIPAY');
    await expect(runs).toHaveCount(runCount);
    await expect(page.locator('[data-testid="no-bill-ALIPAY"]')).toHaveCount(runCount);
    for (const note of await page.locator('[data-testid="no-bill-ALIPAY"]').all()) await expect(note).toContainText(words.reconciliation('noBillYet'));
    for (const run of await runs.all()) await expect(run.locator('..').getByTestId('error-in-words')).toHaveCount(0);
    const { start, end } = beijingDayBounds(today)!;
    // Orders on an approved Alipay credential: what the accounts' runs cover (an order needs one to be made).
    const paidToday = await withDatabase(
      async (client) => (await client.query<{ count: string; total: string }>(`SELECT count(*), coalesce(sum(pay_amount_minor), 0) AS total FROM orders WHERE channel = 'ALIPAY' AND status = 'paid' AND paid_at >= $1 AND paid_at < $2 AND credential_id IN (SELECT id FROM upstream_credentials WHERE channel = 'ALIPAY' AND review_status = 'approved')`, [start, end])).rows[0]!,
    );
    expect(Number(paidToday.count)).toBeGreaterThan(0);
    const ourSide = new RegExp(words.reconciliation('ourSide').replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace('{count}', '(\\d+)').replace('{total}', '¥?([\\d.,]+)(?: CNY)?'));
    let shownCount = 0;
    let shownMinor = 0n;
    for (const run of await runs.all()) {
      const [, count, total] = ourSide.exec((await run.textContent()) ?? '') ?? [];
      shownCount += Number(count);
      shownMinor += BigInt(total!.replace(/[.,]/g, ''));
    }
    expect({ count: shownCount, total: formatMinorUnits(shownMinor) }).toEqual({ count: Number(paidToday.count), total: formatMinorUnits(BigInt(paidToday.total)) });
    await expectAxeClean(page, `reconciliation page (${locale})`);

    // An EVM chain held after a re-org, resumed where the watcher had read up to.
    const chain = locale === 'en' ? 'POLYGON' : 'ERC20';
    await expect.poll(() => withDatabase(async (client) => (await client.query('SELECT 1 FROM evm_chain_cursors WHERE chain = $1', [chain])).rowCount), { timeout: 60_000 }).toBe(1);
    const cursor = await withDatabase(async (client) => (await client.query<{ block_number: string }>(`UPDATE evm_chain_cursors SET reorg_detected_at = now(), reorg_node_hash = '0x' || repeat('ab', 32) WHERE chain = $1 RETURNING block_number`, [chain])).rows[0]!);
    try {
      await page.goto('/operator/health');
      const resume = page.getByRole('form', { name: words.actions('resumeLabel', { chain }) });
      await resume.getByLabel(words.actions('afterBlock')).fill('x');
      await resume.getByRole('button', { name: words.actions('resumeButton', { chain }) }).click();
      await expect(resume.getByRole('alert')).toHaveText(words.actions('blockInvalid'));
      await expectAxeClean(page, `health page with a held chain (${locale})`);
      await resume.getByLabel(words.actions('afterBlock')).fill(cursor.block_number);
      await resume.getByRole('button', { name: words.actions('resumeButton', { chain }) }).click();
      await expect(page.getByTestId(`held-${chain}`)).toHaveCount(0);
      expect(await withDatabase(async (client) => (await client.query('SELECT reorg_detected_at FROM evm_chain_cursors WHERE chain = $1', [chain])).rows[0])).toEqual({ reorg_detected_at: null });
    } finally {
      await withDatabase((client) => client.query('UPDATE evm_chain_cursors SET reorg_detected_at = NULL, reorg_node_hash = NULL WHERE chain = $1', [chain]));
    }

    // Each is in the audit log under the operator's name.
    expect(await auditActions(operator.email)).toEqual(['merchant.usdt_pool_limits', 'account.unlock', 'reconciliation.rerun', 'evm.resume']);
  });
}
