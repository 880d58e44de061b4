import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../lib/db/client';
import { parseSingleJsonObject } from '../lib/cli/run-admin-for-tests';
import { alipaySubmit, anAlipayMerchant } from '../test/alipay-sandbox';
import { runSandbox } from '../test/run-sandbox';
import { SUBMIT, startSandboxTestBed } from '../test/beds/sandboxes';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof anAlipayMerchant>>;

async function anOrderNo(): Promise<string> {
  const { json } = await bed.app.signedPost(SUBMIT, alipaySubmit(merchant.appId, { amount: '9.90' }), merchant.appSecret);
  expect(json.code).toBe(0);
  return json.data.platformOrderNo;
}

async function status(orderNo: string): Promise<string> {
  const { rows } = await getDb().execute<{ status: string }>(sql`SELECT status FROM orders WHERE order_no = ${orderNo}`);
  return rows[0]!.status;
}

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await anAlipayMerchant();
});
afterAll(() => bed.close());

describe('npm run sandbox -- alipay pay', () => {
  it('opens the order at the simulated Alipay as the payer would, pays it, and the service acknowledges the notification', async () => {
    const orderNo = await anOrderNo();
    const run = await runSandbox(['alipay', 'pay', '--order', orderNo, '--json']);
    expect(run.exitCode).toBe(0);
    expect(parseSingleJsonObject(run.stdout)).toMatchObject({
      outTradeNo: orderNo,
      amount: '9.90',
      status: 'TRADE_SUCCESS',
      newlyPaid: true,
      notify: { url: `${bed.app.baseUrl}/v1/api/callback/alipay`, httpStatus: 200, body: 'success', acknowledged: true },
    });
    expect(await status(orderNo)).toBe('paid');

    const again = await runSandbox(['alipay', 'pay', '--order', orderNo]);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toContain(`already paid: ${orderNo}`);
  });

  it('--no-notify pays without the notification; an unknown order is an input error', async () => {
    const orderNo = await anOrderNo();
    const run = await runSandbox(['alipay', 'pay', '--order', orderNo, '--no-notify', '--json']);
    expect(parseSingleJsonObject(run.stdout)).toMatchObject({ status: 'TRADE_SUCCESS', notify: null });
    expect(await status(orderNo)).toBe('pending');

    const unknown = await runSandbox(['alipay', 'pay', '--order', 'A0000', '--json']);
    expect(unknown.exitCode).toBe(1);
    expect(parseSingleJsonObject(unknown.stdout)).toEqual({ error: { kind: 'rejected', message: 'no ALIPAY order A0000' } });
  });
});
