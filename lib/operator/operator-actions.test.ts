import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { accountTotpFactors, accounts, attentionDismissals, auditLog, merchants, notifications, orders, receivingAddresses } from '../db/schema';
import { createAccount } from '../accounts/accounts';
import { addReceivingAddress, setReceivingAddressEnabled } from '../channels/usdt/receiving-addresses';
import { recordTransfers } from '../channels/usdt/chain/record-transfers';
import { chainTransfers } from '../channels/usdt/chain/schema';
import { recordUpstreamCallback } from '../channels/upstream-callbacks';
import { reviewCredential, setCredentialEnabled, submitCredential } from '../credentials/credentials';
import { credentialChannelNamed } from '../channels/index';
import { setOrderPermission } from '../merchants/merchants';
import { getUsdtMaxPerOrderMinor, setUsdtMaxPerOrderMinor } from '../channels/usdt/max-per-order';
import { aMerchant, aTronAddress } from '../../test/factories';
import { anAlipayCredential } from '../../test/credential-keys';
import { aPendingUsdtOrder, payOrder } from '../../test/paid-orders';
import { addOperatorAccount } from './add-operator-account';
import { listAttention } from './attention';
import { assignTransferToOrder, completeOrderFromAttention, dismissAttentionItem, resendFailedNotification } from './attention-actions';
import { listAuditLog } from './audit-log';
import { loadOperatorContext, operatorActor, operatorsNeedSecondFactor } from './operator-context';
import { startTotpEnrolment } from '../accounts/totp-factor';
import { withAuthenticatorApp } from '../../test/operator-authenticator';
import { openAccountSession } from '../accounts/account-sessions';

const db = () => getDb();
const OPERATOR = 'ops@example.com';
/** Audit entries by this actor fail (a trigger below): the change they belong to must not survive. */
const FAILING_ACTOR = 'audit-fails@example.com';

let poolAddress: { id: number; address: string };

beforeAll(async () => {
  await db().execute(sql`
    CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.actor = ${sql.raw(`'${FAILING_ACTOR}'`)} THEN RAISE EXCEPTION 'audit refused for the test'; END IF; RETURN NEW; END $$`);
  await db().execute(sql`CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_audit()`);
  const { address } = await addReceivingAddress(db(), 'TRC20', aTronAddress());
  poolAddress = address;
});
afterAll(async () => {
  await db().execute(sql`DROP TRIGGER refuse_audit ON audit_log`);
});

async function latestAudit(subject: string) {
  const [row] = await db().select().from(auditLog).where(eq(auditLog.subject, subject)).orderBy(sql`${auditLog.id} DESC`).limit(1);
  return row;
}

describe('the operator session context', () => {
  it('is built for an operator account and refused to merchants, stale sessions and unknown accounts', async () => {
    const operator = await createAccount(db(), { email: `op-${randomBytes(3).toString('hex')}@example.com`, password: 'operator password 1', role: 'operator' });
    const merchant = await aMerchant();
    const merchantAccount = await createAccount(db(), { email: `m-${randomBytes(3).toString('hex')}@example.com`, password: 'merchant password 1', role: 'merchant', merchantId: merchant.id });
    const sessionOf = (accountId: number) => openAccountSession(db(), { accountId, sessionVersion: 0, userAgent: 'test', clientAddress: '192.0.2.1', now: new Date() });
    const sessionId = await sessionOf(operator.id);
    expect(await loadOperatorContext(db(), { accountId: operator.id, sessionVersion: 0, sessionId })).toEqual({ accountId: operator.id, email: operator.email, sessionId, mustSetUpSecondFactor: false, secondFactorResetAt: null });
    expect(await loadOperatorContext(db(), { accountId: merchantAccount.id, sessionVersion: 0, sessionId: await sessionOf(merchantAccount.id) })).toBeUndefined();
    expect(await loadOperatorContext(db(), { accountId: operator.id, sessionVersion: 1, sessionId })).toBeUndefined();
    expect(await loadOperatorContext(db(), { accountId: operator.id, sessionVersion: 0, sessionId: 'made up' })).toBeUndefined();
    expect(await loadOperatorContext(db(), { accountId: 999_999_999, sessionVersion: 0, sessionId })).toBeUndefined();
    expect(await loadOperatorContext(db(), { accountId: 0, sessionVersion: 0, sessionId })).toBeUndefined();
    await db().update(accounts).set({ sessionVersion: 1 }).where(eq(accounts.id, operator.id));
    expect(await loadOperatorContext(db(), { accountId: operator.id, sessionVersion: 0, sessionId })).toBeUndefined();
    expect(operatorActor({ email: 'a@b.c' })).toBe('a@b.c');
  });

  it('in production holds an operator without a confirmed authenticator app to setting one up; a test run or a development server does not', async () => {
    const operator = await createAccount(db(), { email: `op-${randomBytes(3).toString('hex')}@example.com`, password: 'operator password 1', role: 'operator' });
    const token = { accountId: operator.id, sessionVersion: 0, sessionId: await openAccountSession(db(), { accountId: operator.id, sessionVersion: 0, userAgent: 'test', clientAddress: '192.0.2.1', now: new Date() }) };
    expect(operatorsNeedSecondFactor({ NODE_ENV: 'production' } as NodeJS.ProcessEnv)).toBe(true);
    expect(operatorsNeedSecondFactor({ NODE_ENV: 'development' } as NodeJS.ProcessEnv)).toBe(false);
    expect(operatorsNeedSecondFactor({} as NodeJS.ProcessEnv)).toBe(false);
    const saved = process.env.NODE_ENV;
    (process.env as Record<string, string>).NODE_ENV = 'production';
    try {
      expect(await loadOperatorContext(db(), token)).toMatchObject({ accountId: operator.id, mustSetUpSecondFactor: true });
      // Begun but not confirmed by the app's code: still held.
      await startTotpEnrolment(db(), { accountId: operator.id, now: new Date() });
      expect(await loadOperatorContext(db(), token)).toMatchObject({ mustSetUpSecondFactor: true });
      await db().delete(accountTotpFactors).where(eq(accountTotpFactors.accountId, operator.id));
      await withAuthenticatorApp(db(), operator.id);
      expect(await loadOperatorContext(db(), token)).toMatchObject({ accountId: operator.id, mustSetUpSecondFactor: false, secondFactorResetAt: null });
    } finally {
      (process.env as Record<string, string>).NODE_ENV = saved!;
    }
  });

  it('adds operator accounts: hashed password, audited, a taken email or a short password refused', async () => {
    const email = `new-op-${randomBytes(3).toString('hex')}@example.com`;
    const account = await addOperatorAccount(db(), { email: email.toUpperCase(), password: 'long enough password', actor: 'cli:root' });
    const [row] = await db().select().from(accounts).where(eq(accounts.id, account.id));
    expect(row).toMatchObject({ email, role: 'operator', merchantId: null });
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await latestAudit(`account:${account.id}`)).toMatchObject({ actor: 'cli:root', action: 'operator.add', after: { email, role: 'operator' } });
    await expect(addOperatorAccount(db(), { email, password: 'long enough password', actor: 'cli:root' })).rejects.toThrow(`email: ${email} already has an account`);
    await expect(addOperatorAccount(db(), { email: 'short@example.com', password: 'short', actor: 'cli:root' })).rejects.toThrow(/^password: Password must be at least 10/);
    await expect(addOperatorAccount(db(), { email: 'not an email', password: 'long enough password', actor: 'cli:root' })).rejects.toThrow(/^email: /);
  });
});

describe('operator actions write the audit log in the same transaction', () => {
  it('order permission: before/after audited; a failing audit entry leaves the permission unchanged', async () => {
    const merchant = await aMerchant({ orderPermission: true });
    await setOrderPermission(db(), merchant.appId, false, { actor: OPERATOR, reason: 'chargebacks' });
    expect(await latestAudit(`merchant:${merchant.appId}`)).toMatchObject({
      actor: OPERATOR,
      action: 'merchant.orders_off',
      reason: 'chargebacks',
      before: { orderPermission: true },
      after: { orderPermission: false },
    });
    await expect(setOrderPermission(db(), merchant.appId, true, { actor: FAILING_ACTOR })).rejects.toThrow();
    const [row] = await db().select().from(merchants).where(eq(merchants.id, merchant.id));
    expect(row!.orderPermission).toBe(false);
    expect(JSON.stringify(await latestAudit(`merchant:${merchant.appId}`))).not.toContain(merchant.appSecret);
  });

  it('receiving addresses: add (base58check checked) and disable are audited; a failing entry undoes the change', async () => {
    await expect(addReceivingAddress(db(), 'TRC20', 'T' + 'x'.repeat(33), { actor: OPERATOR })).rejects.toMatchObject({ kind: 'invalid_receiving_address' });
    const text = aTronAddress();
    await expect(addReceivingAddress(db(), 'TRC20', text, { actor: FAILING_ACTOR })).rejects.toThrow();
    expect(await db().select().from(receivingAddresses).where(eq(receivingAddresses.address, text))).toEqual([]);
    const { address } = await addReceivingAddress(db(), 'TRC20', text, { actor: OPERATOR });
    expect(await latestAudit(`address:${address.id}`)).toMatchObject({ action: 'address.add', actor: OPERATOR, after: { address: text, enabled: true } });
    await expect(setReceivingAddressEnabled(db(), { id: address.id, enabled: false, actor: FAILING_ACTOR })).rejects.toThrow();
    expect((await db().select().from(receivingAddresses).where(eq(receivingAddresses.id, address.id)))[0]!.enabled).toBe(true);
    await setReceivingAddressEnabled(db(), { id: address.id, enabled: false, actor: OPERATOR });
    expect(await latestAudit(`address:${address.id}`)).toMatchObject({ action: 'address.disable', before: { enabled: true }, after: { enabled: false } });
    await expect(setReceivingAddressEnabled(db(), { id: 987_654, enabled: false, actor: OPERATOR })).rejects.toThrow('receiving address not found: 987654');
  });

  it('the USDT per-order limit: audited with before/after; a failing entry keeps the old limit', async () => {
    await setUsdtMaxPerOrderMinor(db(), 250_000n, { actor: OPERATOR });
    expect(await latestAudit('setting:usdt_max_per_order')).toMatchObject({ action: 'limit.usdt_max_per_order', after: { usdtMaxPerOrder: '2500.00' } });
    await expect(setUsdtMaxPerOrderMinor(db(), 1n, { actor: FAILING_ACTOR })).rejects.toThrow();
    expect(await getUsdtMaxPerOrderMinor(db())).toBe(250_000n);
    await setUsdtMaxPerOrderMinor(db(), 1_000_000n, { actor: OPERATOR });
    expect(await latestAudit('setting:usdt_max_per_order')).toMatchObject({ before: { usdtMaxPerOrder: '2500.00' }, after: { usdtMaxPerOrder: '10000.00' } });
  });

  it('credential review: approval audited without any secret; a failing entry leaves it pending', async () => {
    const merchant = await aMerchant();
    const input = anAlipayCredential();
    const credential = await submitCredential(db(), credentialChannelNamed('ALIPAY'), { merchantId: merchant.id, actor: 'account:m@example.com', now: new Date(), credential: input });
    await expect(reviewCredential(db(), { credentialId: credential.id, decision: 'approve', actor: FAILING_ACTOR, now: new Date() })).rejects.toThrow();
    await reviewCredential(db(), { credentialId: credential.id, decision: 'reject', reason: 'wrong app id', actor: OPERATOR, now: new Date() });
    await reviewCredential(db(), { credentialId: credential.id, decision: 'approve', actor: OPERATOR, now: new Date() });
    await setCredentialEnabled(db(), { credentialId: credential.id, scope: { kind: 'operator' }, enabled: false, actor: OPERATOR, now: new Date() });
    const entries = await listAuditLog(db(), { action: 'credential.', actor: OPERATOR });
    expect(entries.rows.filter((row) => row.subject === `credential:${credential.id}`).map((row) => row.action)).toEqual(['credential.disable', 'credential.approve', 'credential.reject']);
    const privateKeyLine = input.appPrivateKey.split('\n')[1]!;
    expect(JSON.stringify(entries.rows)).not.toContain(privateKeyLine);
  });
});

describe('attention: dismiss, complete by hand, resend', () => {
  let transferSequence = 0;
  async function aTransfer(valueRaw: bigint, blockTime = new Date()) {
    transferSequence += 1;
    const [recorded] = await recordTransfers(db(), [
      {
        transactionId: `${randomBytes(16).toString('hex')}${transferSequence}`,
        eventIndex: 0,
        blockNumber: 1000 + transferSequence,
        blockTime,
        from: aTronAddress(),
        to: poolAddress.address,
        receivingAddressId: poolAddress.id,
        valueRaw,
      },
    ]);
    const { rows } = await db().execute<{ id: string }>(sql`SELECT id FROM chain_transfers WHERE transaction_id = ${recorded!.transfer.transactionId}`);
    return { id: Number(rows[0]!.id), verdict: recorded!.verdict };
  }

  it('an unmatched transfer is listed, dismissed with a note (audited, same transaction), and leaves the list', async () => {
    const transfer = await aTransfer(7_770_000n);
    expect(transfer.verdict).toBe('no_order');
    const listed = (await listAttention(db())).transfers.find((item) => item.id === transfer.id);
    expect(listed).toMatchObject({ problem: 'unmatched', amount: '7.77', order: null });

    await expect(dismissAttentionItem(db(), { kind: 'transfer', itemId: transfer.id, note: '  ', actor: OPERATOR, now: new Date() })).rejects.toThrow('note: a note is required');
    await expect(dismissAttentionItem(db(), { kind: 'transfer', itemId: transfer.id, note: 'refund sent', actor: FAILING_ACTOR, now: new Date() })).rejects.toThrow();
    expect(await db().select().from(attentionDismissals).where(eq(attentionDismissals.itemId, transfer.id))).toEqual([]);

    await dismissAttentionItem(db(), { kind: 'transfer', itemId: transfer.id, note: 'refunded to the sender', actor: OPERATOR, now: new Date() });
    expect((await listAttention(db())).transfers.some((item) => item.id === transfer.id)).toBe(false);
    expect(await latestAudit(`transfer:${transfer.id}`)).toMatchObject({
      actor: OPERATOR,
      action: 'attention.dismiss',
      reason: 'refunded to the sender',
      before: { verdict: 'no_order' },
      after: { verdict: 'no_order', dismissed: true },
    });
    await expect(dismissAttentionItem(db(), { kind: 'transfer', itemId: transfer.id, note: 'again', actor: OPERATOR, now: new Date() })).rejects.toThrow('already dismissed');
    await expect(dismissAttentionItem(db(), { kind: 'order', itemId: 1, note: 'x', actor: OPERATOR, now: new Date() })).rejects.toThrow('kind must be one of');
    await expect(dismissAttentionItem(db(), { kind: 'callback', itemId: 123_456, note: 'x', actor: OPERATOR, now: new Date() })).rejects.toThrow('callback not found: 123456');
  });

  it('a short payment: listed as short against its order; completed by hand with a reason, which pays, notifies and dismisses', async () => {
    const merchant = await aMerchant();
    const order = await aPendingUsdtOrder(merchant.id, 'http://127.0.0.1:9/notify', { amountMinor: 5_000n });
    const transfer = await aTransfer(4_990_000n);
    expect(transfer.verdict).toBe('wrong_amount');
    const listed = (await listAttention(db())).transfers.find((item) => item.id === transfer.id);
    expect(listed).toMatchObject({ problem: 'short', amount: '4.99', shortBy: '45.01', order: { orderNo: order.orderNo, appId: merchant.appId, status: 'pending', payAmount: '50.00' } });

    await expect(completeOrderFromAttention(db(), { kind: 'transfer', itemId: transfer.id, reason: '', actor: OPERATOR, now: new Date() })).rejects.toThrow('reason: a reason is required');
    await expect(completeOrderFromAttention(db(), { kind: 'transfer', itemId: transfer.id, reason: 'ok', actor: FAILING_ACTOR, now: new Date() })).rejects.toThrow();
    expect((await db().select().from(orders).where(eq(orders.id, order.id)))[0]!.status).toBe('pending');

    await completeOrderFromAttention(db(), { kind: 'transfer', itemId: transfer.id, reason: 'merchant accepts 4.99', actor: OPERATOR, now: new Date() });
    expect((await db().select().from(orders).where(eq(orders.id, order.id)))[0]).toMatchObject({ status: 'paid', paidVia: 'manual' });
    expect(await db().select().from(notifications).where(eq(notifications.orderId, order.id))).toHaveLength(1);
    expect(await latestAudit(`order:${order.orderNo}`)).toMatchObject({ action: 'order.complete', actor: OPERATOR, reason: 'merchant accepts 4.99' });
    expect(await latestAudit(`transfer:${transfer.id}`)).toMatchObject({ action: 'attention.dismiss', reason: `order ${order.orderNo} completed by hand: merchant accepts 4.99` });
    expect((await listAttention(db())).transfers.some((item) => item.id === transfer.id)).toBe(false);
  });

  it('an unmatched transfer is assigned to the order it pays: paid with its transaction id, notified, audited, dismissed', async () => {
    // The transfer arrives while no order waits on the address; the order it was meant for is placed afterwards.
    const transfer = await aTransfer(3_210_000n);
    expect(transfer.verdict).toBe('no_order');
    const merchant = await aMerchant();
    const order = await aPendingUsdtOrder(merchant.id, 'http://127.0.0.1:9/notify', { amountMinor: 7_100n });
    const { transactionId, fromAddress } = (await db().select().from(chainTransfers).where(eq(chainTransfers.id, transfer.id)))[0]!;
    await expect(assignTransferToOrder(db(), { transferId: transfer.id, orderNo: 'U-NO-SUCH', reason: 'x', actor: OPERATOR, now: new Date() })).rejects.toThrow('order not found');
    await expect(assignTransferToOrder(db(), { transferId: transfer.id, orderNo: order.orderNo, reason: ' ', actor: OPERATOR, now: new Date() })).rejects.toThrow('reason: a reason is required');

    await assignTransferToOrder(db(), { transferId: transfer.id, orderNo: order.orderNo, reason: 'payer sent 3.21 for it, confirmed', actor: OPERATOR, now: new Date() });
    expect((await db().select().from(orders).where(eq(orders.id, order.id)))[0]).toMatchObject({ status: 'paid', paidVia: 'manual', tradeNo: transactionId, payer: fromAddress });
    expect((await db().select().from(chainTransfers).where(eq(chainTransfers.id, transfer.id)))[0]!.orderId).toBe(order.id);
    expect(await db().select().from(notifications).where(eq(notifications.orderId, order.id))).toHaveLength(1);
    expect(await latestAudit(`order:${order.orderNo}`)).toMatchObject({ action: 'order.complete', actor: OPERATOR, after: { tradeNo: transactionId } });
    expect(await latestAudit(`transfer:${transfer.id}`)).toMatchObject({ action: 'attention.dismiss', reason: `assigned to order ${order.orderNo}: payer sent 3.21 for it, confirmed` });
    expect((await listAttention(db())).transfers.some((item) => item.id === transfer.id)).toBe(false);
    await expect(assignTransferToOrder(db(), { transferId: transfer.id, orderNo: order.orderNo, reason: 'again', actor: OPERATOR, now: new Date() })).rejects.toThrow();
  });

  it('an unlinked transfer or a notification cannot be completed by hand', async () => {
    const transfer = await aTransfer(1_230_000n);
    await expect(completeOrderFromAttention(db(), { kind: 'transfer', itemId: transfer.id, reason: 'x', actor: OPERATOR, now: new Date() })).rejects.toThrow('not linked to an order');
    await expect(completeOrderFromAttention(db(), { kind: 'notification', itemId: 1, reason: 'x', actor: OPERATOR, now: new Date() })).rejects.toThrow('resend it instead');
  });

  it('a rejected upstream callback is listed and dismissed; a genuine one never is', async () => {
    const forged = await recordUpstreamCallback(db(), { channel: 'YHT', receivedAt: new Date(), verdict: 'bad_signature', detail: 'sign mismatch', outTradeNo: 'Y-404' });
    const genuine = await recordUpstreamCallback(db(), { channel: 'YHT', receivedAt: new Date(), verdict: 'duplicate', outTradeNo: 'Y-1' });
    const callbacks = (await listAttention(db())).callbacks;
    expect(callbacks.find((item) => item.id === forged)).toMatchObject({ verdict: 'bad_signature', detail: 'sign mismatch', order: null });
    expect(callbacks.some((item) => item.id === genuine)).toBe(false);
    await expect(dismissAttentionItem(db(), { kind: 'callback', itemId: genuine, note: 'x', actor: OPERATOR, now: new Date() })).rejects.toThrow('does not need attention');
    await dismissAttentionItem(db(), { kind: 'callback', itemId: forged, note: 'probe from a scanner', actor: OPERATOR, now: new Date() });
    expect((await listAttention(db())).callbacks.some((item) => item.id === forged)).toBe(false);
  });

  it('a notification that failed every attempt is listed, resent (new cycle, audited) and then leaves the list', async () => {
    const merchant = await aMerchant();
    const order = await aPendingUsdtOrder(merchant.id, 'http://127.0.0.1:9/notify');
    await payOrder(order.id, new Date());
    await db().update(notifications).set({ status: 'failed', attemptCount: 10, failedAt: new Date(), lastError: 'HTTP 500' }).where(eq(notifications.orderId, order.id));
    const [failed] = await db().select().from(notifications).where(eq(notifications.orderId, order.id));
    expect((await listAttention(db())).notifications.find((item) => item.id === failed!.id)).toMatchObject({
      attempts: 10,
      lastError: 'HTTP 500',
      order: { orderNo: order.orderNo, appId: merchant.appId, status: 'paid' },
    });
    const resent = await resendFailedNotification(db(), { notificationId: failed!.id, actor: OPERATOR, now: new Date() });
    expect(resent.cycle).toBe(2);
    expect(await db().select().from(notifications).where(and(eq(notifications.orderId, order.id), eq(notifications.cycle, 2)))).toHaveLength(1);
    expect(await latestAudit(`order:${order.orderNo}`)).toMatchObject({ action: 'notification.resend', actor: OPERATOR, after: { cycle: 2 } });
    expect((await listAttention(db())).notifications.some((item) => item.id === failed!.id)).toBe(false);
    await expect(resendFailedNotification(db(), { notificationId: 999_999, actor: OPERATOR, now: new Date() })).rejects.toMatchObject({ kind: 'action_refused' });
  });
});
