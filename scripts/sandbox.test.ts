import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../lib/db/client';
import { parseSingleJsonObject } from '../lib/cli/run-admin-for-tests';
import { runSandbox } from '../test/run-sandbox';
import { aMerchant } from '../test/factories';
import { yhtSubmit } from '../test/yht-sandbox';
import { SUBMIT, startSandboxTestBed } from '../test/beds/sandboxes';

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof aMerchant>>;

async function anOrderNo(): Promise<string> {
  const { json } = await bed.app.signedPost(SUBMIT, yhtSubmit(merchant.appId, { payMoney: '9.90' }), merchant.appSecret);
  expect(json.code).toBe(0);
  return json.data.orderNo;
}

async function status(orderNo: string): Promise<string> {
  const { rows } = await getDb().execute<{ status: string }>(sql`SELECT status FROM orders WHERE order_no = ${orderNo}`);
  return rows[0]!.status;
}

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await aMerchant();
});
afterAll(() => bed.close());

describe('npm run sandbox -- yht pay', () => {
  it('pays the order at the simulated aggregator and sends the callback the service acknowledges', async () => {
    const orderNo = await anOrderNo();
    const run = await runSandbox(['yht', 'pay', '--order', orderNo, '--json']);
    expect(run.exitCode).toBe(0);
    expect(parseSingleJsonObject(run.stdout)).toMatchObject({
      outTradeNo: orderNo,
      amount: '9.90',
      status: 'SUCCESS',
      newlyPaid: true,
      callback: { httpStatus: 200, body: 'success', acknowledged: true },
    });
    expect(await status(orderNo)).toBe('paid');
  });

  it('--no-callback pays upstream only (a lost callback); an unknown order or a missing option exits 1', async () => {
    const orderNo = await anOrderNo();
    const [lost, unknown, missing] = await Promise.all([
      runSandbox(['yht', 'pay', '--order', orderNo, '--no-callback']),
      runSandbox(['yht', 'pay', '--order', 'Y-NOPE', '--json']),
      runSandbox(['yht', 'pay']),
    ]);
    expect(lost.exitCode).toBe(0);
    expect(lost.stdout).toContain('callback not sent');
    expect(await status(orderNo)).toBe('pending');
    expect(unknown.exitCode).toBe(1);
    expect(parseSingleJsonObject(unknown.stdout)).toEqual({ error: { kind: 'rejected', message: 'no sandbox YHT order Y-NOPE' } });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('missing option --order');
  });

  it('prints usage, names unknown commands, and is refused where the sandbox is off', async () => {
    const [help, commandHelp, unknown, off] = await Promise.all([
      runSandbox(['--help']),
      runSandbox(['yht', 'pay', '--help']),
      runSandbox(['paypal', 'refund']),
      runSandbox(['yht', 'pay', '--order', 'Y1'], { ...process.env, NODE_ENV: 'production', SANDBOX_ENABLED: '' }),
    ]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('yht pay');
    expect(commandHelp.stdout).toContain('usage: npm run sandbox -- yht pay --order <orderNo>');
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('unknown command: paypal refund');
    expect(off.exitCode).toBe(1);
    expect(off.stderr).toContain('the sandbox is off');
  });
});

describe('sandbox tron transfer', () => {
  it('puts a transfer on the sandbox ledger, and refuses a bad address or amount naming it', async () => {
    const to = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    const sent = await runSandbox(['tron', 'transfer', '--to', to, '--amount', '12.345678', '--json']);
    expect(sent.exitCode).toBe(0);
    const result = parseSingleJsonObject(sent.stdout);
    expect(result).toMatchObject({ to, amount: '12.345678' });
    const { rows } = await getDb().execute<{ value_raw: string }>(sql`SELECT value_raw::text FROM sandbox_tron_transfers WHERE transaction_id = ${String(result.transactionId)}`);
    expect(rows).toEqual([{ value_raw: '12345678' }]);

    const badAddress = await runSandbox(['tron', 'transfer', '--to', 'T123', '--amount', '1']);
    expect(badAddress.exitCode).toBe(1);
    expect(badAddress.stderr).toContain('to is not a valid TRON address: T123');
    const badAmount = await runSandbox(['tron', 'transfer', '--to', to, '--amount', '1.1234567']);
    expect(badAmount.exitCode).toBe(1);
    expect(badAmount.stderr).toContain('at most 6 decimals');
  });

  it('--index-delay-ms makes the sandbox indexer list the transfer late', async () => {
    const to = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    const [late, bad] = await Promise.all([
      runSandbox(['tron', 'transfer', '--to', to, '--amount', '3', '--index-delay-ms', '90000', '--json']),
      runSandbox(['tron', 'transfer', '--to', to, '--amount', '3', '--index-delay-ms', 'soon']),
    ]);
    expect(late.exitCode).toBe(0);
    const result = parseSingleJsonObject(late.stdout);
    const { rows } = await getDb().execute<{ delay: string }>(
      sql`SELECT (indexed_at_ms - block_timestamp_ms)::text AS delay FROM sandbox_tron_transfers WHERE transaction_id = ${String(result.transactionId)}`,
    );
    expect(rows).toEqual([{ delay: '90000' }]);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('--index-delay-ms must be a whole number of milliseconds');
  });
});
