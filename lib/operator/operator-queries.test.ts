import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import { getDb } from '../db/client';
import { merchants, notifications } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { addReceivingAddress } from '../channels/usdt/receiving-addresses';
import { reviewCredential, submitCredential } from '../credentials/credentials';
import { credentialChannelNamed } from '../channels/index';
import { createMerchant } from '../merchants/merchants';
import { runJobExclusively } from '../jobs/periodic-job';
import { aTronAddress } from '../../test/factories';
import { anAlipayCredential } from '../../test/credential-keys';
import { aPendingUsdtOrder, payOrder } from '../../test/paid-orders';
import { listAddressHoldings } from '../channels/usdt/operator/address-holdings';
import { AUDIT_PAGE_SIZE, listAuditLog } from './audit-log';
import { listCredentialQueue } from './credential-queue';
import { healthSnapshot, KNOWN_JOB_NAMES } from './health';
import { listMerchants, merchantDetail } from './merchants';
import { operatorOverview } from './overview';
import { containsPattern } from './paging';

const db = () => getDb();
const tag = randomBytes(3).toString('hex');

let acme: { id: number; appId: string; appSecret: string };
let zeta: { id: number; appId: string };

beforeAll(async () => {
  const created = await createMerchant(db(), { name: `Acme 100% ${tag}`, orderPermission: true });
  acme = { ...created.merchant, appSecret: created.appSecret };
  zeta = (await createMerchant(db(), { name: `Zeta_${tag}`, orderPermission: false })).merchant;
});

describe('merchants', () => {
  it('lists newest first and searches by name or AppID, case-insensitively, with LIKE wildcards taken literally', async () => {
    const all = await listMerchants(db(), {});
    expect(all.rows.map((row) => row.appId).slice(0, 2)).toEqual([zeta.appId, acme.appId]);
    expect((await listMerchants(db(), { q: `ACME 100% ${tag}` })).rows.map((row) => row.appId)).toEqual([acme.appId]);
    expect((await listMerchants(db(), { q: zeta.appId.slice(4, 12) })).rows.map((row) => row.appId)).toEqual([zeta.appId]);
    expect((await listMerchants(db(), { q: `Zeta%${tag}` })).rows).toHaveLength(0);
    expect((await listMerchants(db(), { q: `Zeta_${tag}` })).rows).toHaveLength(1);
    expect(containsPattern('a_b%c\\')).toBe('%a\\_b\\%c\\\\%');
    // Keyset pages: one merchant a page would need 25; the cursor of the newest row pages below it.
    const below = await listMerchants(db(), { before: `${all.rows[0]!.createdAt.toISOString().replace('Z', '000Z')}_${all.rows[0]!.id}` });
    expect(below.rows[0]!.appId).not.toBe(zeta.appId);
    expect((await listMerchants(db(), { before: 'not-a-cursor' })).rows[0]!.appId).toBe(zeta.appId);
  });

  it('details a merchant: AppSecret metadata but never the secret, credentials without keys, recent orders', async () => {
    await addReceivingAddress(db(), 'TRC20', aTronAddress());
    const order = await aPendingUsdtOrder(acme.id, 'http://127.0.0.1:9/notify', { amountMinor: 1_234n });
    const credentialInput = anAlipayCredential();
    await submitCredential(db(), credentialChannelNamed('ALIPAY'), { merchantId: acme.id, actor: 'account:x', now: new Date(), credential: credentialInput });
    const rotatedAt = new Date();
    await recordAudit(db(), { actor: 'account:x', action: 'merchant.app_secret.rotate', subject: `merchant:${acme.appId}` });
    const detail = (await merchantDetail(db(), acme.appId))!;
    expect(detail.merchant).toMatchObject({ appId: acme.appId, orderPermission: true });
    expect(detail.secret.lastRotatedAt!.getTime()).toBeGreaterThanOrEqual(rotatedAt.getTime() - 1000);
    expect(detail.secret.lastRevealedAt).toBeNull();
    expect(detail.orders).toEqual([expect.objectContaining({ orderNo: order.orderNo, amount: '12.34', status: 'pending' })]);
    expect(detail.credentials).toHaveLength(1);
    expect((await listMerchants(db(), { q: acme.appId })).rows[0]).toMatchObject({ orderCount: 1, pendingCredentials: 1 });
    const text = JSON.stringify(detail);
    expect(text).not.toContain(acme.appSecret);
    const [row] = await db().select().from(merchants).where(eq(merchants.id, acme.id));
    expect(text).not.toContain(row!.appSecretEncrypted);
    expect(text).not.toContain(credentialInput.appPrivateKey.split('\n')[1]!);
    expect(await merchantDetail(db(), 'mch_nobody')).toBeUndefined();
  });
});

describe('the credential review queue', () => {
  it('puts pending credentials first (oldest first), then the others newest first, with the merchant named', async () => {
    const now = new Date();
    const first = await submitCredential(db(), credentialChannelNamed('ALIPAY'), { merchantId: zeta.id, actor: 'a', now, credential: anAlipayCredential() });
    const second = await submitCredential(db(), credentialChannelNamed('ALIPAY'), { merchantId: zeta.id, actor: 'a', now, credential: anAlipayCredential() });
    const third = await submitCredential(db(), credentialChannelNamed('ALIPAY'), { merchantId: zeta.id, actor: 'a', now, credential: anAlipayCredential() });
    await reviewCredential(db(), { credentialId: first.id, decision: 'approve', actor: 'ops', now });
    const queue = (await listCredentialQueue(db())).filter((row) => row.merchantId === zeta.id);
    expect(queue.map((row) => row.id)).toEqual([second.id, third.id, first.id]);
    expect(queue[0]).toMatchObject({ merchantAppId: zeta.appId, merchantName: `Zeta_${tag}`, reviewStatus: 'pending' });
    expect(Object.keys(queue[0]!)).not.toContain('privateKeyEncrypted');
    expect((await listCredentialQueue(db(), { reviewStatus: 'approved' })).map((row) => row.id)).toContain(first.id);
    expect((await listCredentialQueue(db(), { reviewStatus: 'approved' })).map((row) => row.id)).not.toContain(second.id);
  });
});

describe('receiving addresses', () => {
  it('shows per address the pending orders and the amounts they hold (paid orders release theirs)', async () => {
    const text = aTronAddress();
    const { address } = await addReceivingAddress(db(), 'TRC20', text);
    // Only this address is enabled for the next orders, so they land on it.
    await db().execute(sql`UPDATE receiving_addresses SET enabled = (id = ${address.id})`);
    const held = await aPendingUsdtOrder(zeta.id, 'http://127.0.0.1:9/n', { amountMinor: 2_500n });
    // Another merchant's: one merchant may hold only half of an amount's slots (fair-share.ts).
    const bumped = await aPendingUsdtOrder(acme.id, 'http://127.0.0.1:9/n', { amountMinor: 2_500n });
    const paid = await aPendingUsdtOrder(zeta.id, 'http://127.0.0.1:9/n', { amountMinor: 900n });
    await payOrder(paid.id, new Date());
    expect([held.payAmountMinor, bumped.payAmountMinor]).toEqual([2_500n, 2_501n]);
    const row = (await listAddressHoldings(db())).find((candidate) => candidate.id === address.id);
    expect(row).toMatchObject({ address: text, enabled: true, pendingOrders: 2, coolingDown: 0, heldAmounts: ['25.00', '25.01'] });
    // Its window over, an order keeps its slot through the cool-down but is no longer pending.
    await db().execute(sql`UPDATE orders SET status = 'closed', close_reason = 'expired', closed_at = now(), expires_at = now() - interval '1 minute' WHERE id = ${held.id}`);
    const later = (await listAddressHoldings(db())).find((candidate) => candidate.id === address.id);
    expect(later).toMatchObject({ pendingOrders: 1, coolingDown: 1, heldAmounts: ['25.00', '25.01'] });
    await db().execute(sql`UPDATE receiving_addresses SET enabled = true`);
  });
});

describe('the audit log', () => {
  it('pages newest first and filters by exact action, action family and part of the actor', async () => {
    for (let index = 0; index < AUDIT_PAGE_SIZE + 2; index += 1) {
      await recordAudit(db(), { actor: `pager-${tag}@example.com`, action: index % 2 ? 'test.odd' : 'test.even', subject: `n:${index}` });
    }
    const first = await listAuditLog(db(), { actor: `PAGER-${tag}` });
    expect([first.rows.length, first.newer]).toEqual([AUDIT_PAGE_SIZE, undefined]);
    expect(first.rows[0]!.subject).toBe(`n:${AUDIT_PAGE_SIZE + 1}`);
    const second = await listAuditLog(db(), { actor: `pager-${tag}`, before: first.older });
    expect(second.rows.map((row) => row.subject)).toEqual(['n:1', 'n:0']);
    expect(second.older).toBeUndefined();
    const back = await listAuditLog(db(), { actor: `pager-${tag}`, after: second.newer });
    expect(back.rows.map((row) => row.subject)).toEqual(first.rows.map((row) => row.subject));
    expect((await listAuditLog(db(), { action: 'test.odd', actor: tag })).rows).toHaveLength((AUDIT_PAGE_SIZE + 2) / 2);
    expect((await listAuditLog(db(), { action: 'test.', actor: tag })).rows).toHaveLength(AUDIT_PAGE_SIZE);
    expect((await listAuditLog(db(), { action: 'test.*', actor: tag })).older).toBeDefined();
    expect((await listAuditLog(db(), { action: 'test', actor: tag })).rows).toHaveLength(0);
  });
});

describe('health', () => {
  it('shows every known job ("never" run: no run), then each run recorded in job_runs, failures with their error', async () => {
    const before = await healthSnapshot(db(), new Date());
    expect(before.jobs.map((job) => job.name)).toEqual(expect.arrayContaining(['usdt-chain-watcher', 'yht-poller', 'alipay-poller', 'wechat-poller']));
    expect(before.jobs.find((job) => job.name === 'alipay-poller')!.run).toBeUndefined();
    expect(KNOWN_JOB_NAMES).toContain('usdt-order-expiry');

    const log = () => undefined;
    await runJobExclusively({ name: 'alipay-poller', intervalMs: 1000, run: async () => undefined }, { db: db(), clock: systemClock, log });
    await expect(
      runJobExclusively({ name: 'wechat-poller', intervalMs: 1000, run: () => Promise.reject(new Error('gateway 502')) }, { db: db(), clock: systemClock, log }),
    ).rejects.toThrow('gateway 502');
    await runJobExclusively({ name: 'wechat-poller', intervalMs: 1000, run: async () => undefined }, { db: db(), clock: systemClock, log });
    await runJobExclusively({ name: 'some-new-job', intervalMs: 1000, run: async () => undefined }, { db: db(), clock: systemClock, log });

    const after = await healthSnapshot(db(), new Date());
    expect(after.jobs.find((job) => job.name === 'alipay-poller')!.run).toMatchObject({ lastOutcome: 'ok', runCount: 1, failureCount: 0, lastError: null });
    const wechat = after.jobs.find((job) => job.name === 'wechat-poller')!.run!;
    expect(wechat).toMatchObject({ lastOutcome: 'ok', runCount: 2, failureCount: 1, lastError: 'gateway 502' });
    expect(wechat.lastErrorAt!.getTime()).toBeLessThanOrEqual(wechat.lastSuccessAt!.getTime());
    expect(after.jobs.map((job) => job.name)).toContain('some-new-job');
  });

  it('reports the chain cursor with its lag and the notification queue (depth, due now, oldest due)', async () => {
    const now = new Date('2026-06-01T12:00:00Z');
    await db().execute(sql`INSERT INTO chain_cursors (name, block_timestamp_ms) VALUES ('usdt-trc20', ${now.getTime() - 45_000})
      ON CONFLICT (name) DO UPDATE SET block_timestamp_ms = EXCLUDED.block_timestamp_ms`);
    const order = await aPendingUsdtOrder(acme.id, 'http://127.0.0.1:9/n');
    await payOrder(order.id, new Date());
    await db().update(notifications).set({ nextAttemptAt: new Date(now.getTime() - 60_000) }).where(eq(notifications.orderId, order.id));
    const snapshot = await healthSnapshot(db(), now);
    expect(snapshot.chain.lagMs).toBe(45_000);
    expect(snapshot.chain.cursorAt).toEqual(new Date(now.getTime() - 45_000));
    expect(snapshot.notifications.pending).toBeGreaterThanOrEqual(1);
    expect(snapshot.notifications.dueNow).toBeGreaterThanOrEqual(1);
    expect(snapshot.notifications.oldestDueAt!.getTime()).toBeLessThanOrEqual(now.getTime() - 60_000);
  });

  it('the index counts what waits in each section', async () => {
    const overview = await operatorOverview(db());
    expect(overview.merchants).toBeGreaterThanOrEqual(2);
    expect(overview.pendingCredentials).toBeGreaterThanOrEqual(2);
    expect(overview.attention).toEqual({ transfers: expect.any(Number), callbacks: expect.any(Number), notifications: expect.any(Number) });
  });
});
