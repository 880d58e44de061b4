import { generateKeyPairSync } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { admin, followNavLink, signUp, uniqueEmail } from '../factories';

function rsaKeyPair() {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
}

test('upstream credentials: submit an ALIPAY credential, a bad PEM is named, the operator approves, disable, delete', async ({ page }, testInfo) => {
  test.setTimeout(180_000); // first visits compile pages in development mode; the operator CLI runs once
  await signUp(page, { name: `Carol ${testInfo.project.name}`, email: uniqueEmail(`carol-${testInfo.project.name}`) });

  await followNavLink(page, 'Credentials');
  await page.waitForURL('**/portal/credentials', { timeout: 60_000 });
  await expect(page.getByTestId('no-credentials')).toBeVisible();

  const app = rsaKeyPair();
  const alipay = rsaKeyPair();
  const appId = `2021${String(Math.floor(Math.random() * 1e12)).padStart(12, '0')}`;
  const form = page.getByRole('form', { name: 'ALIPAY credential' });
  await form.getByLabel('App ID').fill(appId);
  await form.getByLabel('App private key').fill(app.privateKey);
  await form.getByLabel('Alipay public key').fill(alipay.publicKey);
  await form.getByLabel('Alipay user ID (seller_id)').fill('2088102177296610');
  await form.getByRole('button', { name: 'Submit ALIPAY credential' }).click();

  const submitted = form.getByRole('status').filter({ hasText: 'pending review' });
  await expect(submitted).toBeVisible();
  const credentialId = /Credential (\d+) submitted/.exec((await submitted.textContent())!)![1]!;
  const row = page.getByTestId(`credential-${credentialId}`);
  await expect(row.getByTestId('credential-review')).toContainText('Pending review');
  await expect(row).toContainText(appId);
  await expect(row).toContainText('seller_id 2088102177296610');
  // The keys are gone from the form and never shown on the page again.
  await expect(form.getByLabel('App private key')).toHaveValue('');
  const keyLine = app.privateKey.split('\n')[1]!;
  expect(await page.content()).not.toContain(keyLine);
  await page.reload();
  expect(await page.content()).not.toContain(keyLine);

  // A bad PEM: the error names the field, is announced, and marks the input; in the page's one language only.
  await form.getByLabel('App ID').fill(appId);
  await form.getByLabel('App private key').fill('-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----');
  await form.getByLabel('Alipay public key').fill(alipay.publicKey);
  await form.getByLabel('Alipay user ID (seller_id)').fill('2088123');
  await form.getByRole('button', { name: 'Submit ALIPAY credential' }).click();
  await expect(form.getByRole('alert').filter({ hasText: /^App private key: not a valid PEM private key$/ })).toBeVisible();
  await expect(form.getByLabel('App private key')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByRole('alert').filter({ hasText: /^Alipay user ID \(seller_id\): must be the Alipay user id: 2088 followed by 12 digits$/ })).toBeVisible();
  await expect(form.getByRole('alert').first()).toHaveText(
    'Check the fields below: App private key: not a valid PEM private key; Alipay user ID (seller_id): must be the Alipay user id: 2088 followed by 12 digits',
  );
  expect(await form.textContent()).not.toMatch(/[\u4e00-\u9fff]/);
  await expect(form.getByLabel('Alipay user ID (seller_id)')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('Alipay public key')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('tbody tr')).toHaveCount(1);

  // The operator approves from the CLI.
  expect(admin('credential', 'approve', '--id', credentialId)).toMatchObject({ id: Number(credentialId), reviewStatus: 'approved', usable: true });
  await page.reload();
  await expect(row.getByTestId('credential-review')).toContainText('Approved');
  await expect(row.getByTestId('credential-state')).toContainText('usable');

  // Disable, then delete after confirming.
  await row.getByRole('button', { name: `Disable credential ${credentialId}` }).click();
  await expect(row.getByTestId('credential-state')).toContainText('Disabled');
  await expect(row.getByTestId('credential-state')).not.toContainText('usable');
  await row.getByRole('button', { name: `Delete credential ${credentialId}` }).click();
  await expect(row.getByText(`Delete credential ${credentialId}?`)).toBeVisible();
  await row.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `Delete credential ${credentialId}` }).click();
  await row.getByRole('button', { name: 'Confirm delete' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId('no-credentials')).toBeVisible();
});
