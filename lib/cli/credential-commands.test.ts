import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { auditLog } from '../db/schema';
import { submitCredential } from '../credentials/credentials';
import { credentialChannelNamed } from '../channels/index';
import { findUsableCredential } from '../credentials/find-usable-credential';
import { createMerchant } from '../merchants/merchants';
import { anAlipayCredential } from '../../test/credential-keys';
import { parseSingleJsonObject, runAdmin, runAdminJson } from './run-admin-for-tests';

let merchantId: number;

beforeAll(async () => {
  merchantId = (await createMerchant(getDb(), { name: 'CLI review', orderPermission: true })).merchant.id;
});

async function pendingCredential(): Promise<number> {
  return (await submitCredential(getDb(), credentialChannelNamed('ALIPAY'), { merchantId, actor: 'account:cli-test', now: new Date(), credential: anAlipayCredential() })).id;
}

describe('admin credential', () => {
  it('lists the review queue, approves, disables, enables and deletes, each audited with the operator', async () => {
    const id = await pendingCredential();
    const queue = await runAdminJson(['credential', 'list', '--status', 'pending']);
    expect(queue.credentials).toContainEqual(expect.objectContaining({ id, merchantId, channel: 'ALIPAY', reviewStatus: 'pending', usable: false }));
    expect(JSON.stringify(queue)).not.toContain('PRIVATE KEY');

    const env = { ...process.env, OPERATOR: 'operator:ann' };
    expect(await runAdminJson(['credential', 'approve', '--id', String(id)], { env })).toMatchObject({ id, reviewStatus: 'approved', enabled: true, usable: true });
    expect((await findUsableCredential(getDb(), merchantId, 'ALIPAY', id))?.id).toBe(id);

    expect(await runAdminJson(['credential', 'disable', '--id', String(id), '--reason', 'merchant asked'], { env })).toMatchObject({ enabled: false, usable: false });
    expect(await findUsableCredential(getDb(), merchantId, 'ALIPAY', id)).toBeUndefined();
    expect(await runAdminJson(['credential', 'enable', '--id', String(id)], { env })).toMatchObject({ enabled: true, usable: true });

    const text = await runAdmin(['credential', 'delete', '--id', String(id)], { env });
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain(`credential ${id}: ALIPAY`);
    expect(await findUsableCredential(getDb(), merchantId, 'ALIPAY', id)).toBeUndefined();

    const entries = await getDb().select().from(auditLog).where(eq(auditLog.subject, `credential:${id}`)).orderBy(auditLog.id);
    expect(entries.map((entry) => [entry.action, entry.actor, entry.reason])).toEqual([
      ['credential.submit', 'account:cli-test', null],
      ['credential.approve', 'operator:ann', null],
      ['credential.disable', 'operator:ann', 'merchant asked'],
      ['credential.enable', 'operator:ann', null],
      ['credential.delete', 'operator:ann', null],
    ]);
  });

  it('rejects with the reason the merchant will see, and refuses a rejection without one', async () => {
    const id = await pendingCredential();
    const noReason = await runAdmin(['credential', 'reject', '--id', String(id), '--json']);
    expect(noReason.exitCode).toBe(1);
    expect(parseSingleJsonObject(noReason.stdout)).toEqual({ error: { kind: 'usage', message: 'option --reason is required and must not be empty' } });
    expect(await runAdminJson(['credential', 'reject', '--id', String(id), '--reason', 'wrong Alipay public key'])).toMatchObject({
      id,
      reviewStatus: 'rejected',
      rejectionReason: 'wrong Alipay public key',
      usable: false,
    });
  });

  it('names a bad or missing --id and an unknown credential', async () => {
    const [missing, bad, unknown, badStatus] = await Promise.all([
      runAdmin(['credential', 'approve']),
      runAdmin(['credential', 'approve', '--id', '1.5']),
      runAdmin(['credential', 'approve', '--id', '999999', '--json']),
      runAdmin(['credential', 'list', '--status', 'maybe']),
    ]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('missing option --id');
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('option --id must be a credential id');
    expect(unknown.exitCode).toBe(1);
    expect(parseSingleJsonObject(unknown.stdout)).toEqual({ error: { kind: 'rejected', message: 'credential not found: 999999' } });
    expect(badStatus.exitCode).toBe(1);
    expect(badStatus.stderr).toContain('option --status must be one of pending, approved, rejected');
  });
});
