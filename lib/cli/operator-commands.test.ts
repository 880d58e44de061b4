import { spawn } from 'node:child_process';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { aMerchant, aTronAddress } from '../../test/factories';
import { verifyPassword } from '../accounts/passwords';
import { addReceivingAddress } from '../channels/usdt/receiving-addresses';
import { getDb } from '../db/client';
import { accounts, auditLog, merchants, receivingAddresses } from '../db/schema';
import { cliEntryPoint, parseSingleJsonObject, repositoryRoot, runAdmin, runAdminJson, type AdminRun } from './run-admin-for-tests';

let sequence = 0;
const anEmail = () => `cli-operator-${process.pid}-${(sequence += 1)}@example.com`;

/** Runs the CLI with `input` written to its stdin (runAdmin gives the child no stdin). */
function runAdminWithStdin(args: readonly string[], input: string, env: NodeJS.ProcessEnv): Promise<AdminRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliEntryPoint('admin'), ...args], { cwd: repositoryRoot, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
    child.stdin.end(input);
  });
}

async function accountByEmail(email: string) {
  const [row] = await getDb().select().from(accounts).where(eq(accounts.email, email));
  return row;
}

describe('admin operator add', () => {
  it('creates an operator account with the password from OPERATOR_PASSWORD, audited, never echoing the password', async () => {
    const email = anEmail();
    const password = 'operator password from env';
    const run = await runAdmin(['operator', 'add', '--email', email, '--json'], { env: { ...process.env, OPERATOR_PASSWORD: password, OPERATOR: 'cli:tester', PUBLIC_BASE_URL: 'https://pay.example.com/' } });
    expect(run.exitCode).toBe(0);
    const output = parseSingleJsonObject(run.stdout);
    expect(output).toEqual({ id: expect.any(Number), email, role: 'operator', enrolUrl: 'https://pay.example.com/operator/account' });
    expect(run.stdout + run.stderr).not.toContain(password);
    const row = await accountByEmail(email);
    expect(row).toMatchObject({ role: 'operator', merchantId: null });
    expect(await verifyPassword(row!.passwordHash, password)).toBe(true);
    const [entry] = await getDb().select().from(auditLog).where(eq(auditLog.subject, `account:${row!.id}`));
    expect(entry).toMatchObject({ actor: 'cli:tester', action: 'operator.add', after: { email, role: 'operator' } });
    expect(JSON.stringify(entry)).not.toContain(password);
  });

  it('reads the password from the first line of stdin when OPERATOR_PASSWORD is unset', async () => {
    const email = anEmail();
    const env = { ...process.env };
    delete env.OPERATOR_PASSWORD;
    const run = await runAdminWithStdin(['operator', 'add', '--email', email], 'password typed on stdin\nsecond line ignored\n', env);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`operator account ${email.replace(/[.+]/g, '\\$&')} created \\(id \\d+\\)\nsign in, then set up two-step sign-in at https?://\\S+/operator/account\n`));
    expect(await verifyPassword((await accountByEmail(email))!.passwordHash, 'password typed on stdin')).toBe(true);
  });

  it('refuses a short or missing password, a malformed or taken email, and a password given as an argument', async () => {
    const env = { ...process.env };
    delete env.OPERATOR_PASSWORD;
    const [short, missing, malformed, argument] = await Promise.all([
      runAdmin(['operator', 'add', '--email', anEmail(), '--json'], { env: { ...env, OPERATOR_PASSWORD: 'short' } }),
      runAdmin(['operator', 'add', '--email', anEmail(), '--json'], { env }),
      runAdmin(['operator', 'add', '--email', 'not-an-email', '--json'], { env: { ...env, OPERATOR_PASSWORD: 'long enough password' } }),
      runAdmin(['operator', 'add', '--email', anEmail(), '--password', 'long enough password', '--json'], { env }),
    ]);
    expect(short.exitCode).toBe(1);
    expect(parseSingleJsonObject(short.stdout)).toMatchObject({ error: { kind: 'rejected', message: expect.stringMatching(/^password: Password must be at least 10/) } });
    expect(missing.exitCode).toBe(1);
    expect(parseSingleJsonObject(missing.stdout)).toMatchObject({ error: { kind: 'rejected', message: expect.stringMatching(/^password: /) } });
    expect(malformed.exitCode).toBe(1);
    expect(parseSingleJsonObject(malformed.stdout)).toMatchObject({ error: { kind: 'rejected', message: expect.stringMatching(/^email: /) } });
    expect(argument.exitCode).toBe(1);
    expect(parseSingleJsonObject(argument.stdout)).toEqual({ error: { kind: 'usage', message: 'unknown option --password' } });

    const email = anEmail();
    await runAdminJson(['operator', 'add', '--email', email], { env: { ...env, OPERATOR_PASSWORD: 'long enough password' } });
    const taken = await runAdmin(['operator', 'add', '--email', email.toUpperCase(), '--json'], { env: { ...env, OPERATOR_PASSWORD: 'another long password' } });
    expect(taken.exitCode).toBe(1);
    expect(parseSingleJsonObject(taken.stdout)).toMatchObject({ error: { kind: 'rejected', message: `email: ${email} already has an account` } });
  }, 90_000);
});

describe('CLI actions are audited like the console', () => {
  it('merchant orders on|off, address add/disable/enable and limit set write audit entries naming $OPERATOR', async () => {
    const env = { ...process.env, OPERATOR: 'ops-cli@example.com' };
    const merchant = await aMerchant({ orderPermission: false });
    await runAdminJson(['merchant', 'orders', 'on', '--app-id', merchant.appId], { env });
    expect((await getDb().select().from(merchants).where(eq(merchants.id, merchant.id)))[0]!.orderPermission).toBe(true);

    const { address } = await addReceivingAddress(getDb(), 'TRC20', aTronAddress());
    expect(await runAdminJson(['address', 'disable', '--id', String(address.id)], { env })).toMatchObject({ id: address.id, enabled: false });
    expect((await getDb().select().from(receivingAddresses).where(eq(receivingAddresses.id, address.id)))[0]!.enabled).toBe(false);
    expect(await runAdminJson(['address', 'enable', '--id', String(address.id)], { env })).toMatchObject({ enabled: true });
    const added = await runAdminJson(['address', 'add', '--chain', 'TRC20', aTronAddress()], { env });
    await runAdminJson(['limit', 'set', '--usdt-max', '9999'], { env });
    await runAdminJson(['limit', 'set', '--usdt-max', '10000'], { env });

    const entries = await getDb().select().from(auditLog).where(eq(auditLog.actor, 'ops-cli@example.com')).orderBy(auditLog.id);
    expect(entries.map((entry) => [entry.action, entry.subject])).toEqual([
      ['merchant.orders_on', `merchant:${merchant.appId}`],
      ['address.disable', `address:${address.id}`],
      ['address.enable', `address:${address.id}`],
      ['address.add', `address:${added.id}`],
      ['limit.usdt_max_per_order', 'setting:usdt_max_per_order'],
      ['limit.usdt_max_per_order', 'setting:usdt_max_per_order'],
    ]);
    expect(entries[0]).toMatchObject({ before: { orderPermission: false }, after: { orderPermission: true } });
    expect(entries[5]).toMatchObject({ before: { usdtMaxPerOrder: '9999.00' }, after: { usdtMaxPerOrder: '10000.00' } });

    const unknown = await runAdmin(['address', 'disable', '--id', '987654321', '--json'], { env });
    expect(unknown.exitCode).toBe(1);
    expect(parseSingleJsonObject(unknown.stdout)).toMatchObject({ error: { kind: 'rejected', message: 'receiving address not found: 987654321' } });
    const malformed = await runAdmin(['address', 'disable', '--id', 'x1', '--json'], { env });
    expect(parseSingleJsonObject(malformed.stdout)).toMatchObject({ error: { kind: 'usage' } });
  }, 120_000); // eight CLI processes, one after the other
});
