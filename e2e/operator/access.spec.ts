import { expect, request as playwrightRequest, test } from '@playwright/test';
import { postServerAction, serverActionsUnder } from '../server-actions';
import { admin, randomTronAddress, signUp, uniqueEmail, anOperator, anotherBrowser, signInAsOperator, withDatabase, merchantIdOf, seedFailedNotification, seedOrder, seedPendingCredential, seedTransfer } from '../factories';

/**
 * A merchant's session (and no session at all) reaches no operator page and runs no operator server action.
 * Pages: every /operator route is fetched over HTTP with the merchant's cookie and must redirect to the sign-in
 * page without any of its content. Actions: the ids of every server action under app/operator are read from the
 * development build's manifests (what the browser's JavaScript also carries), each is posted as the browser would
 * post it, with the merchant's cookie and with none, aimed at real rows; nothing may change in the database. The
 * same request with the operator's cookie does change it (so the check can fail).
 */

/** What every action is called with: real targets seeded below. */
type Targets = { appId: string; credentialId: number; addressId: number; transferId: number; notificationId: number; newAddress: string };
const ACTION_ARGUMENTS: Record<string, (t: Targets) => unknown[]> = {
  setOrderPermissionAction: (t) => [t.appId, true],
  approveCredentialAction: (t) => [t.credentialId],
  rejectCredentialAction: (t) => [t.credentialId, 'tampered'],
  setCredentialEnabledAction: (t) => [t.credentialId, false],
  deleteCredentialAction: (t) => [t.credentialId],
  addAddressAction: (t) => [{ address: t.newAddress }],
  setAddressEnabledAction: (t) => [t.addressId, false],
  setUsdtLimitAction: () => [{ usdtMax: '1.00' }],
  dismissAttentionAction: (t) => [{ kind: 'transfer', itemId: t.transferId, note: 'tampered' }],
  completeOrderAction: (t) => [{ kind: 'transfer', itemId: t.transferId, reason: 'tampered' }],
  assignTransferAction: (t) => [{ itemId: t.transferId, orderNo: 'tampered', reason: 'tampered' }],
  creditFindingAction: () => [1],
  resendNotificationAction: (t) => [t.notificationId],
  setPoolShareAction: (t) => [t.appId, { heldSlots: '1', amountSlots: '1' }],
  unlockAccountAction: () => ['tampered@example.com', { reason: 'tampered' }],
  rerunReconciliationAction: () => ['2026-01-01'],
  resumeEvmChainAction: () => ['BEP20', { afterBlock: '1', reason: 'tampered' }],
  startOperatorSecondFactorAction: () => [],
  confirmOperatorSecondFactorAction: () => [{ code: '123456' }],
  removeOperatorSecondFactorAction: () => [{ password: 'tampered password' }],
  endOperatorSessionsAction: () => [{ allButThis: true }],
  addOperatorPasskeyAction: () => [{ challengeId: 'tampered', response: {}, name: 'tampered', password: 'tampered password' }],
  removeOperatorPasskeyAction: () => [{ passkeyId: 1, password: 'tampered password' }],
};

const PAGES = ['/operator', '/operator/merchants', '/operator/credentials', '/operator/addresses', '/operator/attention', '/operator/audit', '/operator/health', '/operator/reconciliation', '/operator/account'];
/** Text only the signed-in page shows (its heading). */
const PAGE_MARKERS: Record<string, string> = {
  '/operator': 'What waits for an operator',
  '/operator/merchants': 'Name or AppID',
  '/operator/credentials': 'pending ones first',
  '/operator/addresses': 'Per-order USDT limit',
  '/operator/attention': 'Failed notifications',
  '/operator/audit': 'Every operator and merchant action',
  '/operator/health': 'USDT chain watcher',
  '/operator/reconciliation': 'matched against the orders by number and amount',
  '/operator/account': 'Two-step sign-in keeps the console closed',
  '/operator/merchants/[appId]': 'Recent orders',
};

/** Everything an operator action could change about the seeded targets, and the operator audit entries since `sinceAuditId`. */
async function snapshot(targets: Targets, sinceAuditId: number) {
  return withDatabase(async (client) => {
    const one = async (text: string, values: unknown[]) => (await client.query(text, values)).rows;
    return {
      merchant: await one('SELECT order_permission, updated_at FROM merchants WHERE app_id = $1', [targets.appId]),
      credential: await one('SELECT review_status, rejection_reason, enabled, deleted_at, updated_at FROM upstream_credentials WHERE id = $1', [targets.credentialId]),
      address: await one('SELECT enabled FROM receiving_addresses WHERE id = $1', [targets.addressId]),
      newAddress: await one('SELECT id FROM receiving_addresses WHERE address = $1', [targets.newAddress]),
      limit: await one("SELECT value, updated_at FROM platform_settings WHERE key = 'usdt_max_per_order_minor'", []),
      dismissals: await one('SELECT id FROM attention_dismissals WHERE (kind, item_id) IN ((\'transfer\', $1), (\'notification\', $2))', [targets.transferId, targets.notificationId]),
      orders: await one('SELECT o.status, o.paid_at FROM orders o JOIN chain_transfers t ON t.order_id = o.id WHERE t.id = $1', [targets.transferId]),
      notifications: await one('SELECT n2.id, n2.status FROM notifications n JOIN notifications n2 ON n2.order_id = n.order_id WHERE n.id = $1 ORDER BY n2.id', [targets.notificationId]),
      audit: await one('SELECT id, actor, action FROM audit_log WHERE id > $1 AND actor NOT LIKE \'account:%\' ORDER BY id', [sinceAuditId]),
    };
  });
}

test('a merchant session or no session reaches no operator page and runs no operator action', async ({ browser, page, baseURL }, testInfo) => {
  test.setTimeout(300_000); // compiles every operator page in development mode
  const operator = anOperator(`access-${testInfo.project.name}`);
  const appId = await signUp(page, { name: `Intruder ${testInfo.project.name}`, email: uniqueEmail(`intruder-${testInfo.project.name}`) });
  const address = admin('address', 'add', '--chain', 'TRC20', randomTronAddress());

  const targets = await withDatabase(async (client) => {
    const merchantId = await merchantIdOf(client, appId);
    const amount = 100_000 + Math.floor(Math.random() * 800_000);
    const pending = await seedOrder(client, { merchantId, addressId: address.id, amountMinor: amount, status: 'pending' });
    const paid = await seedOrder(client, { merchantId, addressId: address.id, amountMinor: amount + 7, status: 'paid' });
    return {
      appId,
      credentialId: await seedPendingCredential(client, merchantId),
      addressId: address.id as number,
      transferId: await seedTransfer(client, { addressId: address.id, to: address.address, valueRaw: BigInt(amount) * 10_000n - 1n, verdict: 'wrong_amount', orderId: pending.id }),
      notificationId: await seedFailedNotification(client, paid.id),
      newAddress: randomTronAddress(),
    } satisfies Targets;
  });

  // The operator opens every page (so that development mode compiles them and their actions) and sees its content.
  const operatorContext = await anotherBrowser(browser, testInfo);
  const ops = await operatorContext.newPage();
  await signInAsOperator(ops, operator);
  for (const route of [...PAGES, `/operator/merchants/${appId}`]) {
    await ops.goto(route);
    await expect(ops.locator('main')).toContainText(PAGE_MARKERS[route] ?? PAGE_MARKERS['/operator/merchants/[appId]']!);
  }

  const anonymous = await playwrightRequest.newContext({ baseURL });
  const intruders = { merchant: page.request, 'no session': anonymous };

  // Pages: a redirect to the sign-in page, never the content.
  for (const [who, context] of Object.entries(intruders)) {
    for (const route of [...PAGES, `/operator/merchants/${appId}`]) {
      const response = await context.get(route, { maxRedirects: 0, failOnStatusCode: false });
      const body = await response.text();
      expect([302, 303, 307, 308], `${who} GET ${route}`).toContain(response.status());
      expect(response.headers().location, `${who} GET ${route}`).toMatch(who === 'merchant' ? /\/portal\/sign-in\?error=NotOperator$/ : /\/portal\/sign-in\?next=%2Foperator$|\/portal\/sign-in\?next=\/operator$/);
      expect(body, `${who} GET ${route}`).not.toContain(PAGE_MARKERS[route] ?? PAGE_MARKERS['/operator/merchants/[appId]']!);
      const followed = await context.get(route, { failOnStatusCode: false });
      expect(followed.url(), `${who} GET ${route} followed`).toContain('/portal/sign-in');
      expect(await followed.text()).not.toContain(PAGE_MARKERS[route] ?? 'Recent orders');
    }
  }

  // Actions: every one defined under app/operator is covered by this test.
  const actions = serverActionsUnder('app/operator/');
  expect([...actions.keys()].sort()).toEqual(Object.keys(ACTION_ARGUMENTS).sort());

  const auditStart = await withDatabase(async (client) => Number((await client.query('SELECT coalesce(max(id), 0) AS id FROM audit_log')).rows[0].id));
  const before = await snapshot(targets, auditStart);
  expect(before.merchant[0].order_permission).toBe(false);
  expect(before.credential[0].review_status).toBe('pending');
  for (const [who, context] of Object.entries(intruders)) {
    for (const [name, action] of actions) {
      const response = await postServerAction(context, action, ACTION_ARGUMENTS[name]!(targets), baseURL!);
      const body = await response.text();
      // Refused by the guard: the sign-in redirect, never the action's result.
      expect(response.status(), `${who} ${name}`).toBeLessThan(500);
      expect(`${response.headers()['x-action-redirect'] ?? ''} ${response.headers().location ?? ''}`, `${who} ${name}`).toContain('/portal/sign-in');
      expect(body, `${who} ${name}`).not.toContain('"ok":true');
    }
  }
  expect(await snapshot(targets, auditStart), 'nothing changed').toEqual(before);

  // The same request with the operator's session is carried out: the check above can fail.
  const allowed = await postServerAction(ops.request, actions.get('setOrderPermissionAction')!, ACTION_ARGUMENTS.setOrderPermissionAction!(targets), baseURL!);
  expect(allowed.headers()['x-action-redirect'] ?? '').not.toContain('/portal/sign-in');
  const after = await snapshot(targets, auditStart);
  expect(after.merchant[0].order_permission).toBe(true);
  expect(after.audit).toEqual([expect.objectContaining({ actor: operator.email, action: 'merchant.orders_on' })]);

  // Tidy the shared e2e database: the seeded items leave the attention list.
  await withDatabase((client) =>
    client.query("INSERT INTO attention_dismissals (kind, item_id, note, actor) VALUES ('transfer', $1, 'e2e seed', $3), ('notification', $2, 'e2e seed', $3)", [
      targets.transferId,
      targets.notificationId,
      operator.email,
    ]),
  );
  await anonymous.dispose();
  await operatorContext.close();
});
