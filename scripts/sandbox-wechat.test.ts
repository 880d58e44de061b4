import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../lib/db/client';
import type { UsableCredential } from '../lib/credentials/find-usable-credential';
import { parseSingleJsonObject } from '../lib/cli/run-admin-for-tests';
import { aMerchant, aWechatCredential, aWechatOrder } from '../test/factories';
import { runSandbox } from '../test/run-sandbox';
import { startSandboxTestBed } from '../test/beds/sandboxes';
import { sandboxWechatKeysOf } from '../lib/channels/wechat/sandbox-keys';
import { tradeBill } from '../sandbox/wechat/bill';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchantId: number;
let credential: UsableCredential;

async function status(orderNo: string): Promise<string> {
  const { rows } = await getDb().execute<{ status: string }>(sql`SELECT status FROM orders WHERE order_no = ${orderNo}`);
  return rows[0]!.status;
}

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchantId = (await aMerchant()).id;
  credential = await aWechatCredential(merchantId);
});
afterAll(() => bed.close());

describe('npm run sandbox -- wechat pay', () => {
  it('pays the order at the simulated WeChat Pay and sends the notification the service acknowledges with 204', async () => {
    const { order } = await aWechatOrder({ merchantId, credential, amountMinor: 990n });
    const run = await runSandbox(['wechat', 'pay', '--order', order.orderNo, '--json']);
    expect(run.exitCode).toBe(0);
    expect(parseSingleJsonObject(run.stdout)).toMatchObject({
      outTradeNo: order.orderNo,
      transactionId: expect.stringMatching(/^4200\d{24}$/),
      amount: '9.90',
      tradeState: 'SUCCESS',
      newlyPaid: true,
      callback: { httpStatus: 204, acknowledged: true },
    });
    expect(await status(order.orderNo)).toBe('paid');
  });

  it('--no-callback pays upstream only; an unknown order or a missing option exits 1; help lists the command', async () => {
    const { order } = await aWechatOrder({ merchantId, credential, payMethod: 'h5' });
    const [lost, unknown, missing, help] = await Promise.all([
      runSandbox(['wechat', 'pay', '--order', order.orderNo, '--no-callback']),
      runSandbox(['wechat', 'pay', '--order', 'W-NOPE', '--json']),
      runSandbox(['wechat', 'pay']),
      runSandbox(['--help']),
    ]);
    expect(lost.exitCode).toBe(0);
    expect(lost.stdout).toContain('notification not sent');
    expect(await status(order.orderNo)).toBe('pending');
    expect(unknown.exitCode).toBe(1);
    expect(parseSingleJsonObject(unknown.stdout)).toEqual({ error: { kind: 'rejected', message: 'no sandbox WeChat order W-NOPE' } });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('missing option --order');
    expect(help.stdout).toContain('wechat pay');
  });
});

describe('npm run sandbox -- wechat mode / rotate-certificate', () => {
  it('switches to certificate mode and rotates the platform certificate; a bad mode exits 1', async () => {
    const before = parseSingleJsonObject((await runSandbox(['wechat', 'mode', '--json'])).stdout);
    expect(before).toMatchObject({ mode: 'public_key', certificates: [], publicKeyId: expect.stringMatching(/^PUB_KEY_ID_/) });
    const set = await runSandbox(['wechat', 'mode', '--set', 'certificate', '--json']);
    expect(set.exitCode).toBe(0);
    const certificate = parseSingleJsonObject(set.stdout) as { mode: string; certificates: { serial: string }[]; signingCertificate: string };
    expect(certificate).toMatchObject({ mode: 'certificate', certificates: [{ serial: expect.stringMatching(/^[0-9A-F]+$/) }] });
    const rotated = await runSandbox(['wechat', 'rotate-certificate']);
    expect(rotated.exitCode).toBe(0);
    expect(rotated.stdout).toContain(`platform certificate ${certificate.signingCertificate} until`);
    expect(rotated.stdout).toMatch(/platform certificate [0-9A-F]+ \(signs\)/);
    const bad = await runSandbox(['wechat', 'mode', '--set', 'rsa']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('option --set must be one of public_key, certificate, both');
    await runSandbox(['wechat', 'mode', '--set', 'public_key']);
  });
});

describe('npm run sandbox -- wechat bill-plan', () => {
  const day = '2026-11-20';
  const ask = async (now: Date) => (await tradeBill(getDb(), new URLSearchParams({ bill_date: day, bill_type: 'ALL', tar_type: 'GZIP' }), await sandboxWechatKeysOf(getDb()), now, 'http://sandbox.test/v3/billdownload/file')).body.code;

  it('answers STATEMENT_CREATING before 10:00 Beijing time the next day by default, and for a day planned creating whatever the time', async () => {
    await runSandbox(['wechat', 'bill-plan', '--date', day, '--plan', 'none']);
    expect(await ask(new Date('2026-11-21T01:59:00Z'))).toBe('STATEMENT_CREATING');
    expect(await ask(new Date('2026-11-21T02:01:00Z'))).not.toBe('STATEMENT_CREATING');
    const creating = await runSandbox(['wechat', 'bill-plan', '--date', day, '--plan', 'creating', '--json']);
    expect(creating.exitCode, creating.stderr).toBe(0);
    expect(parseSingleJsonObject(creating.stdout)).toMatchObject({ day, plan: 'creating' });
    expect(await ask(new Date('2026-11-25T02:00:00Z'))).toBe('STATEMENT_CREATING');
    expect((await runSandbox(['wechat', 'bill-plan', '--date', day, '--plan', 'legacy'])).exitCode).toBe(0);
    const { rows } = await getDb().execute<{ plan: string }>(sql`SELECT plan FROM sandbox_wechat_bill_plans WHERE day = ${day}`);
    expect(rows).toEqual([{ plan: 'legacy' }]);
    expect((await runSandbox(['wechat', 'bill-plan', '--date', day, '--plan', 'none'])).exitCode).toBe(0);
    const bad = await runSandbox(['wechat', 'bill-plan', '--date', day, '--plan', 'later']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('option --plan must be one of creating, legacy, none');
  });
});

