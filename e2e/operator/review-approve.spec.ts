import { expect, test } from '@playwright/test';
import { rsaKeyPair } from '../../test/credential-keys';
import { admin, PASSWORD, signUp, uniqueEmail, anOperator, anotherBrowser, signInAsOperator } from '../factories';
import { signed } from '../../test/beds/contract-signer';

test('credential review: a merchant submits an ALIPAY credential, an operator approves it in the console, the merchant sees it usable and its ALIPAY submit succeeds', async ({ browser, page }, testInfo) => {
  test.setTimeout(240_000); // first visits compile pages in development mode
  const operator = anOperator(`review-${testInfo.project.name}`);
  const merchantName = `Reviewed ${testInfo.project.name} ${Date.now()}`;
  const merchantAppId = await signUp(page, { name: merchantName, email: uniqueEmail(`review-${testInfo.project.name}`) });

  // The merchant submits an ALIPAY credential on the portal's page.
  await page.goto('/portal/credentials');
  const app = rsaKeyPair();
  const alipay = rsaKeyPair();
  const alipayAppId = `2021${String(Math.floor(Math.random() * 1e12)).padStart(12, '0')}`;
  const form = page.getByRole('form', { name: 'ALIPAY credential' });
  await form.getByLabel('App ID').fill(alipayAppId);
  await form.getByLabel('App private key').fill(app.privateKey);
  await form.getByLabel('Alipay public key').fill(alipay.publicKey);
  await form.getByRole('button', { name: 'Submit ALIPAY credential' }).click();
  const submitted = form.getByRole('status').filter({ hasText: 'pending review' });
  await expect(submitted).toBeVisible();
  const credentialId = /Credential (\d+) submitted/.exec((await submitted.textContent())!)![1]!;

  // The operator, in a browser of their own, finds it in the review queue with its non-secret fields only.
  const operatorContext = await anotherBrowser(browser, testInfo);
  const ops = await operatorContext.newPage();
  await signInAsOperator(ops, operator);
  await ops.getByRole('link', { name: /Credentials to review/ }).click();
  await ops.waitForURL('**/operator/credentials');
  const row = ops.getByTestId(`queue-credential-${credentialId}`);
  await expect(row).toContainText(merchantName);
  await expect(row).toContainText(merchantAppId);
  await expect(row).toContainText(`App ID ${alipayAppId}`);
  await expect(row.getByTestId('review-status')).toContainText('Pending review');
  const keyLine = app.privateKey.split('\n')[1]!;
  expect(await ops.content()).not.toContain(keyLine);

  // A rejection needs a reason: the empty one is refused and named.
  await row.getByRole('button', { name: `Reject credential ${credentialId}` }).click();
  const rejectForm = row.getByRole('form', { name: `Reject credential ${credentialId}` });
  await rejectForm.getByRole('button', { name: 'Confirm reject' }).click();
  await expect(rejectForm.getByRole('alert')).toContainText('a rejection needs a reason');
  await expect(rejectForm.getByLabel(/Reason/)).toHaveAttribute('aria-invalid', 'true');

  // Rejected with a reason: the merchant reads it in the portal.
  const reason = `App ID not found at Alipay ${Date.now()}`;
  await rejectForm.getByLabel(/Reason/).fill(reason);
  await rejectForm.getByRole('button', { name: 'Confirm reject' }).click();
  await expect(row.getByTestId('review-status')).toContainText('Rejected');
  await page.reload();
  await expect(page.getByTestId(`credential-${credentialId}`).getByTestId('credential-rejection')).toContainText(reason);

  // On a second look the operator approves it.
  await row.getByRole('button', { name: `Approve credential ${credentialId}` }).click();
  await expect(row.getByTestId('review-status')).toContainText('Approved');
  await expect(row.getByTestId('credential-state')).toContainText('usable');

  // The approval is in the audit log, by the operator.
  await ops.goto(`/operator/audit?action=credential.approve&actor=${encodeURIComponent(operator.email)}`);
  await expect(ops.getByRole('table', { name: 'Audit log' }).getByText(`credential:${credentialId}`)).toBeVisible();

  // The merchant's portal shows it approved, enabled and usable.
  await page.reload();
  const merchantRow = page.getByTestId(`credential-${credentialId}`);
  await expect(merchantRow.getByTestId('credential-review')).toContainText('Approved');
  await expect(merchantRow.getByTestId('credential-state')).toContainText('Enabled');
  await expect(merchantRow.getByTestId('credential-state')).toContainText('usable');

  // With order permission on, the merchant's signed ALIPAY submit on this credential now succeeds.
  admin('merchant', 'orders', 'on', '--app-id', merchantAppId);
  await page.goto('/portal/keys');
  const revealForm = page.locator('form').filter({ has: page.getByRole('button', { name: 'Reveal AppSecret' }) });
  await revealForm.getByLabel('Password').fill(PASSWORD);
  await revealForm.getByRole('button', { name: 'Reveal AppSecret' }).click();
  const appSecret = (await page.getByTestId('app-secret').textContent())!.trim();
  const merchantOrderNo = `E2E-REVIEWED-${Date.now()}-${testInfo.project.name}`;
  const order = { appId: merchantAppId, merchantOrderNo, payType: 'ALIPAY', payMethod: 'web', amount: '19.90', notifyUrl: 'https://merchant.example/notify' };
  const orderSubmitted = await page.request.post('/v1/api/open/order/submit', { data: signed({ ...order, credentialId }, appSecret) });
  expect(await orderSubmitted.json()).toMatchObject({ code: 0, message: 'ok', data: { merchantOrderNo, amount: '19.90', credentialId: Number(credentialId), recovered: false } });

  await operatorContext.close();
});
