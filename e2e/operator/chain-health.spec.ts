import { expect, test } from '@playwright/test';
import { anOperator, signInAsOperator } from './operator-helpers';

test('the health page lists the chain watcher\'s TronGrid endpoints with their state', async ({ page }) => {
  await signInAsOperator(page, anOperator('chain-health'));
  await page.goto('/operator/health');
  const endpoints = page.getByRole('table', { name: 'TronGrid endpoints · 链上节点' });
  await expect(endpoints).toBeVisible();
  // The development service reads its built-in sandbox chain; the watcher polls every second in these tests.
  const row = endpoints.getByTestId('chain-endpoint');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('/sandbox/tron');
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('chain-endpoint-status')).toHaveText('ok · 正常', { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
});
