import { expect, test } from '@playwright/test';
import { anOperator, signInAsOperator } from '../factories';

test('the health page lists the chain watcher\'s TronGrid endpoints with their state', async ({ page }) => {
  test.setTimeout(120_000); // the first sign-in compiles the portal and the console in dev mode
  await signInAsOperator(page, anOperator('chain-health'));
  await page.goto('/operator/health');
  const endpoints = page.getByRole('table', { name: 'TronGrid endpoints' });
  await expect(endpoints).toBeVisible();
  // The development service reads its built-in sandbox chain; the watcher polls every second in these tests.
  const row = endpoints.getByTestId('chain-endpoint');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('/sandbox/tron');
  // The service has been up (and its watcher polling every second) since before the sign-in.
  await expect(row.getByTestId('chain-endpoint-status')).toHaveText('ok');
});
