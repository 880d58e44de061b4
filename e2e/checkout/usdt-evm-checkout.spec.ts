import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { getAddress } from 'viem';
import { SANDBOX_EVM_CHAINS } from '../../sandbox/evm/chain-specs';
import { admin, asSandboxPayer } from '../factories';
import { signed } from '../../test/beds/contract-signer';
import { startMerchantReceiver } from '../../test/beds/merchant-receiver';

test('an ERC20 USDT order: the checkout names Ethereum, the sandbox EVM wallet pays it on the ganache node', async ({ page, request }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one project is enough for the EVM path');
  const merchant = admin('merchant', 'create', '--name', `E2E EVM ${testInfo.project.name}`, '--orders', 'on');
  const address = getAddress(`0x${randomBytes(20).toString('hex')}`);
  admin('address', 'add', '--chain', 'ERC20', address);
  const receiver = await startMerchantReceiver(merchant.appSecret);
  const amount = `${1000 + Math.floor(Math.random() * 8000)}.${Math.floor(Math.random() * 90 + 10)}`;
  const merchantOrderNo = `E2E-EVM-${Date.now()}`;
  try {
    const submit = await request.post('/v1/api/open/order/submit', {
      data: signed({ appId: merchant.appId, merchantOrderNo, pay_usdt: amount, chainType: '2', notifyUrl: receiver.notifyUrl, redirectUrl: receiver.returnUrl }, merchant.appSecret),
    });
    const body = await submit.json();
    expect(body.code).toBe(0);

    await page.goto(new URL(body.data.payUrl).pathname + '?lang=en');
    await expect(page.getByTestId('pay-network')).toHaveText('ERC20 (Ethereum)');
    await expect(page.getByRole('note')).toContainText('Transfers on other networks (TRC20, BEP20, Polygon) are lost.');
    // The order sits on the first ERC20 address free at this amount: this one, or one an earlier run added.
    const payTo = (await page.getByTestId('pay-address').textContent())!.trim();
    expect(admin('address', 'list').addresses.filter((row: { chain: string }) => row.chain === 'ERC20').map((row: { address: string }) => row.address)).toContain(payTo);

    // MetaMask opens the transfer on the sandbox node's chain, to this address, for exactly the amount (6 decimals).
    const metaMask = new URL((await page.getByTestId('open-metamask').getAttribute('href'))!);
    expect(metaMask.origin + metaMask.pathname).toMatch(new RegExp(`^https://link\\.metamask\\.io/send/0x[0-9a-fA-F]{40}@${SANDBOX_EVM_CHAINS.ERC20.chainId}/transfer$`));
    const [whole, cents] = amount.split('.');
    expect(Object.fromEntries(metaMask.searchParams)).toEqual({ address: payTo, uint256: `${whole}${cents}0000` });

    const walletHref = await page.getByTestId('sandbox-wallet').getAttribute('href');
    await asSandboxPayer(page.context());
    const wallet = await page.context().newPage();
    await wallet.goto(walletHref!);
    await expect(wallet.getByLabel('Network')).toHaveValue('ERC20');
    await expect(wallet.getByLabel('To address')).toHaveValue(payTo);
    await expect(wallet.getByLabel('Amount (USDT)')).toHaveValue(amount);
    await wallet.getByRole('button', { name: 'Send USDT' }).click();
    await expect(wallet.getByTestId('wallet-sent')).toContainText(/0x[0-9a-f]{64}/);

    await expect(page.getByTestId('checkout-paid')).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
    expect(receiver.received[0]!.form).toMatchObject({ merchantOrderNo, pay_usdt: amount, status: 'PAID' });
    const query = await request.post('/v1/api/open/order/query', { data: signed({ appId: merchant.appId, merchantOrderNo }, merchant.appSecret) });
    expect((await query.json()).data).toMatchObject({ status: '1', chainType: '2' });
  } finally {
    receiver.close();
  }
});
