import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type BrowserContext, type Page, type TestInfo } from '@playwright/test';
import type pg from 'pg';
import { authenticatorCode } from '../../test/totp-code';
import { expectAxeClean } from '../axe-clean';
import { admin, anotherBrowser, connectE2eDatabase, merchantIdOf, onStagingService, randomTronAddress, seedOrder, seedPendingCredential, signUp, uniqueEmail } from '../factories';
import { mailTo } from '../mail-sink';
import { postServerAction, serverActionsUnder } from '../server-actions';

/**
 * A merchant's team as its owner builds it and its members use it, against the running service: the owner invites a
 * developer, a finance member and a viewer from the Team page (one of them in Chinese); each joins through the link
 * and signs in. Each role's navigation lists only what it opens, every other page sends to "Not in your role", and
 * every server action the role may not run is refused when posted forged (with the member's own session, own
 * password and real targets): nothing changes. Then the owner changes a role, removes a member, withdraws an
 * invitation, and hands the team over; expired, withdrawn, used and unknown links show a page that says so.
 */
test.describe.configure({ mode: 'serial', timeout: 300_000 });

type MemberRole = 'developer' | 'finance' | 'viewer';
const MEMBER_PASSWORD = 'team member password 1';
const JOINS: { role: MemberRole; locale: 'en' | 'zh-CN' }[] = [
  { role: 'developer', locale: 'en' },
  { role: 'finance', locale: 'zh-CN' },
  { role: 'viewer', locale: 'en' },
];

interface Member {
  role: MemberRole;
  email: string;
  accountId: number;
  context: BrowserContext;
  page: Page;
}

interface Owner {
  email: string;
  appId: string;
  merchantId: number;
  accountId: number;
  context: BrowserContext;
  page: Page;
  paidOrderNo: string;
  pendingOrderNo: string;
  credentialId: number;
}

function words(locale: string) {
  const portal = JSON.parse(readFileSync(`messages/${locale}/portal.json`, 'utf8'));
  const domain = JSON.parse(readFileSync(`messages/${locale}/domain.json`, 'utf8'));
  const fill = (text: string, values: Record<string, string> = {}) => text.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
  return { portal, role: (role: string) => domain.accounts.teamRoles[role] as string, fill };
}
const en = words('en');

/** Each page of the portal and the roles that open it (the owner opens all). */
const PAGES: Record<string, MemberRole[]> = {
  '/portal': ['developer', 'finance', 'viewer'],
  '/portal/orders': ['developer', 'finance', 'viewer'],
  '/portal/account': ['developer', 'finance', 'viewer'],
  '/portal/keys': ['developer'],
  '/portal/credentials': ['developer'],
  '/portal/branding': ['developer'],
  '/portal/signature': ['developer'],
  '/portal/api': ['developer'],
  '/portal/test': ['developer'],
  '/portal/team': [],
};

/** Every portal server action a member might be refused, the roles that may run it, and real arguments. */
type Targets = { owner: Owner; member: Member };
const ACTIONS: Record<string, { roles: MemberRole[]; args: (t: Targets) => unknown[] }> = {
  revealSecretAction: { roles: ['developer'], args: () => [MEMBER_PASSWORD] },
  rotateSecretAction: { roles: ['developer'], args: () => [{ password: MEMBER_PASSWORD, confirmed: true, overlap: false }] },
  endOverlapAction: { roles: ['developer'], args: () => [{ password: MEMBER_PASSWORD, confirmed: true }] },
  submitCredentialAction: { roles: ['developer'], args: () => [{ channel: 'ALIPAY', appId: '2021000000000001' }] },
  setCredentialEnabledAction: { roles: ['developer'], args: (t) => [t.owner.credentialId, false] },
  deleteCredentialAction: { roles: ['developer'], args: (t) => [t.owner.credentialId] },
  saveBrandingAction: { roles: ['developer'], args: () => [null] },
  debugSignatureAction: { roles: ['developer'], args: (t) => [{ body: JSON.stringify({ appId: t.owner.appId, signature: '0' }) }] },
  createTestOrderAction: { roles: ['developer'], args: () => [{ channel: 'USDT', amount: '1.00' }] },
  addSandboxCredentialAction: { roles: ['developer'], args: () => ['ALIPAY'] },
  saveTimeZoneAction: { roles: ['developer'], args: () => [{ timeZone: 'Asia/Tokyo' }] },
  saveCloseNoticesAction: { roles: ['developer'], args: () => [{ enabled: true }] },
  resendNotificationAction: { roles: ['developer'], args: (t) => [t.owner.paidOrderNo] },
  refundOrderAction: { roles: ['finance'], args: (t) => [t.owner.paidOrderNo, { amount: '0.01', reason: 'forged', transactionId: 'forged', password: MEMBER_PASSWORD, confirmed: true }, true] },
  refundLatePaymentAction: { roles: ['finance'], args: (t) => [t.owner.paidOrderNo, MEMBER_PASSWORD] },
  remedyAbnormalRefundAction: { roles: ['finance'], args: (t) => [t.owner.paidOrderNo, 'R1', { type: 'MERCHANT_BANK_CARD', bankType: '', bankAccount: '', realName: '', password: MEMBER_PASSWORD }] },
  closeOrderAction: { roles: ['finance'], args: (t) => [t.owner.pendingOrderNo] },
  inviteMemberAction: { roles: [], args: () => [{ email: uniqueEmail('forged-invite'), role: 'owner' }] },
  revokeInvitationAction: { roles: [], args: () => [1] },
  changeRoleAction: { roles: [], args: (t) => [t.member.accountId, 'owner'] },
  removeMemberAction: { roles: [], args: (t) => [t.owner.accountId] },
  transferOwnershipAction: { roles: [], args: (t) => [t.member.accountId, 'viewer'] },
  setTeamSecondFactorAction: { roles: [], args: () => [true] },
};
/** The account page's own actions: every member runs them on their own account. */
const EVERY_MEMBER = ['changePasswordAction', 'startSecondFactorAction', 'confirmSecondFactorAction', 'removeSecondFactorAction', 'addPasskeyAction', 'removePasskeyAction', 'endSessionsAction'];

let db: pg.Client;
let owner: Owner;
const members = new Map<MemberRole, Member>();

async function contextIn(browser: Browser, testInfo: TestInfo, locale: string): Promise<BrowserContext> {
  const context = await anotherBrowser(browser, testInfo);
  await context.addCookies([{ name: 'NEXT_LOCALE', value: locale, url: testInfo.project.use.baseURL! }]);
  return context;
}

/** The owner's invitation from the Team page: the link it shows. */
async function invite(email: string, role: string): Promise<string> {
  const { page } = owner;
  await page.goto('/portal/team');
  const form = page.getByRole('form', { name: en.portal.team.invite.heading });
  await expect(form.getByRole('button', { name: en.portal.team.invite.submit })).toBeEnabled();
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Role').selectOption(role);
  await form.getByRole('button', { name: en.portal.team.invite.submit }).click();
  const link = (await page.getByTestId('invitation-link').textContent())!.trim();
  expect(link).toMatch(/\/portal\/invite\/[A-Za-z0-9_-]{43}$/);
  // The staging service e-mails invitations (to its mail sink, e2e/mail-sink.ts): the same link, in both languages.
  if (onStagingService) {
    await expect(page.getByTestId('invitation-mailed')).toHaveText(en.fill(en.portal.team.invite.mailed, { email: email.toLowerCase() }));
    const mail = mailTo(email).at(-1);
    expect(mail?.subject).toMatch(/邀请您加入 .+ 的团队 \/ .+ invites you to the team of /);
    expect(mail?.text).toContain(link);
  }
  return new URL(link).pathname;
}

/** Everything a refused action could have changed of the merchant. */
async function snapshot() {
  const rows = async (text: string) => (await db.query(text, [owner.merchantId])).rows;
  return {
    merchant: await rows('SELECT app_secret_encrypted, time_zone, close_notices, updated_at FROM merchants WHERE id = $1'),
    accounts: await rows('SELECT id, email, team_role, password_hash, session_version FROM accounts WHERE merchant_id = $1 ORDER BY id'),
    invitations: await rows('SELECT id, email, team_role, revoked_at, accepted_at FROM team_invitations WHERE merchant_id = $1 ORDER BY id'),
    credentials: await rows('SELECT id, review_status, enabled, deleted_at FROM upstream_credentials WHERE merchant_id = $1 ORDER BY id'),
    orders: await rows('SELECT order_no, status, updated_at FROM orders WHERE merchant_id = $1 ORDER BY id'),
    refunds: await rows('SELECT r.id FROM refunds r JOIN orders o ON o.id = r.order_id WHERE o.merchant_id = $1'),
    notifications: await rows('SELECT n.id, n.cycle FROM notifications n JOIN orders o ON o.id = n.order_id WHERE o.merchant_id = $1 ORDER BY n.id'),
    branding: await rows('SELECT * FROM merchant_branding WHERE merchant_id = $1'),
  };
}

test.beforeAll(async ({ browser }, testInfo) => {
  db = await connectE2eDatabase();
  const context = await contextIn(browser, testInfo, 'en');
  const page = await context.newPage();
  const email = uniqueEmail(`team-owner-${testInfo.project.name}`).toLowerCase();
  const appId = await signUp(page, { name: `Team shop ${testInfo.project.name}`, email });
  admin('merchant', 'orders', 'on', '--app-id', appId);
  const address = admin('address', 'add', '--chain', 'TRC20', randomTronAddress());
  const merchantId = await merchantIdOf(db, appId);
  const amount = 10_000 + Math.floor(Math.random() * 80_000);
  const paid = await seedOrder(db, { merchantId, addressId: address.id, amountMinor: amount, status: 'paid' });
  const pending = await seedOrder(db, { merchantId, addressId: address.id, amountMinor: amount + 3, status: 'pending' });
  const [account] = (await db.query('SELECT id FROM accounts WHERE email = $1', [email])).rows;
  owner = { email, appId, merchantId, accountId: Number(account.id), context, page, paidOrderNo: paid.orderNo, pendingOrderNo: pending.orderNo, credentialId: await seedPendingCredential(db, merchantId) };
});

test.afterAll(async () => {
  for (const member of members.values()) await member.context.close();
  await owner?.context.close();
  await db?.end();
});

test('the owner invites a developer, a finance member (in Chinese) and a viewer; each joins through the link and signs in', async ({ browser }, testInfo) => {
  await owner.page.goto('/portal/team');
  await expect(owner.page.getByTestId('team-member')).toHaveCount(1);
  await expect(owner.page.getByTestId('team-roles')).toContainText(en.portal.team.roleHints.finance);
  await expectAxeClean(owner.page, 'team page');
  for (const { role, locale } of JOINS) {
    const email = uniqueEmail(`team-${role}-${testInfo.project.name}`).toLowerCase();
    const link = await invite(email, role);
    await expect(owner.page.getByTestId('team-invitation').filter({ hasText: email })).toBeVisible();

    const w = words(locale);
    const context = await contextIn(browser, testInfo, locale);
    const page = await context.newPage();
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(w.fill(w.portal.invite.title, { merchant: `Team shop ${testInfo.project.name}` }));
    await expect(page.getByTestId('invitation')).toContainText(w.role(role));
    await expectAxeClean(page, `invitation page (${locale})`);
    // A password too short, then passwords that differ: said on the field, nothing created.
    await page.getByLabel(w.portal.invite.password, { exact: true }).fill('short');
    await page.getByLabel(w.portal.invite.confirm).fill('short');
    await page.getByRole('button', { name: w.portal.invite.submit }).click();
    await expect(page.getByRole('alert').filter({ hasText: JSON.parse(readFileSync(`messages/${locale}/domain.json`, 'utf8')).accounts.team.passwordTooShort })).toBeVisible();
    await page.getByLabel(w.portal.invite.password, { exact: true }).fill(MEMBER_PASSWORD);
    await page.getByLabel(w.portal.invite.confirm).fill(`${MEMBER_PASSWORD}x`);
    await page.getByRole('button', { name: w.portal.invite.submit }).click();
    await expect(page.getByRole('alert').filter({ hasText: w.portal.invite.mismatch })).toBeVisible();
    expect((await db.query('SELECT 1 FROM accounts WHERE email = $1', [email])).rowCount).toBe(0);

    await page.getByLabel(w.portal.invite.confirm).fill(MEMBER_PASSWORD);
    await page.getByRole('button', { name: w.portal.invite.submit }).click();
    await page.waitForURL(/\/portal\/sign-in\?joined=1/);
    await expect(page.getByText(w.portal.signIn.joined)).toBeVisible();
    await page.getByLabel(w.portal.signIn.email).fill(email);
    await page.getByLabel(w.portal.signIn.password, { exact: true }).fill(MEMBER_PASSWORD);
    await page.getByRole('button', { name: w.portal.signIn.submit }).click();
    await page.waitForURL(/\/portal$/);

    // The link is used up.
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(w.portal.invite.closed.used.title);
    const [row] = (await db.query('SELECT id, team_role, merchant_id FROM accounts WHERE email = $1', [email])).rows;
    expect({ role: row.team_role, merchantId: Number(row.merchant_id) }).toEqual({ role, merchantId: owner.merchantId });
    members.set(role, { role, email, accountId: Number(row.id), context, page });
  }
  await owner.page.goto('/portal/team');
  await expect(owner.page.getByTestId('team-member')).toHaveCount(4);
  await expect(owner.page.getByTestId('no-invitations')).toBeVisible();
  const audit = (await db.query("SELECT action FROM audit_log WHERE action LIKE 'team.%' AND (actor = $1 OR actor = ANY($2)) ORDER BY id", [`account:${owner.email}`, [...members.values()].map((m) => `account:${m.email}`)])).rows;
  expect(audit.map((entry) => entry.action)).toEqual(['team.invite', 'team.invitation_accept', 'team.invite', 'team.invitation_accept', 'team.invite', 'team.invitation_accept']);
});

test('each role’s navigation lists only what it opens; every other page, by URL, says “Not in your role”', async () => {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
  const listedFor = async (page: Page) => {
    await page.goto('/portal');
    const hrefs = await page.locator('[data-testid="back-office-nav"] nav a').evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
    return [...new Set(hrefs)].sort();
  };
  // The owner's list: every page (test mode while the sandbox is on).
  const ownersList = await listedFor(owner.page);
  expect(ownersList.filter((path) => path !== '/portal/test')).toEqual(Object.keys(PAGES).filter((path) => path !== '/portal/test').sort());
  for (const member of members.values()) {
    expect(await listedFor(member.page), member.role).toEqual(ownersList.filter((path) => PAGES[path]!.includes(member.role)));

    for (const [path, roles] of Object.entries(PAGES)) {
      const response = await member.context.request.get(path, { maxRedirects: 0 });
      if (roles.includes(member.role)) {
        expect(response.status(), `${member.role} ${path}`).toBe(200);
        continue;
      }
      expect([303, 307], `${member.role} ${path}`).toContain(response.status());
      expect(response.headers().location, `${member.role} ${path}`).toMatch(/\/portal\/not-allowed\?page=\w+$/);
      expect(await response.text()).not.toContain(owner.appId.slice(4)); // nothing of the page came with the redirect
    }
    const statement = await member.context.request.get(`/portal/statement?from=${today}&to=${today}`);
    expect(statement.status(), `${member.role} statement`).toBe(member.role === 'finance' ? 200 : 403);
  }

  // The page the refused land on, in each member's language; the order page without the buttons the role may not press.
  const viewer = members.get('viewer')!;
  await viewer.page.goto('/portal/keys');
  await expect(viewer.page.getByTestId('not-allowed')).toContainText(en.fill(en.portal.notAllowed.body, { merchant: `Team shop ${test.info().project.name}`, role: en.role('viewer'), page: en.portal.notAllowed.pages.keys }));
  await expectAxeClean(viewer.page, 'not allowed (en)');
  const finance = members.get('finance')!;
  const zh = words('zh-CN');
  await finance.page.goto('/portal/team');
  await expect(finance.page.getByTestId('not-allowed')).toContainText(zh.fill(zh.portal.notAllowed.body, { merchant: `Team shop ${test.info().project.name}`, role: zh.role('finance'), page: zh.portal.notAllowed.pages.team }));
  await expectAxeClean(finance.page, 'not allowed (zh-CN)');
  await finance.page.goto(`/portal/orders/${owner.pendingOrderNo}`);
  await expect(finance.page.getByTestId('order-close')).toBeVisible();
  await viewer.page.goto(`/portal/orders/${owner.pendingOrderNo}`);
  await expect(viewer.page.getByTestId('order-close')).toHaveCount(0);
  await viewer.page.goto(`/portal/orders/${owner.paidOrderNo}`);
  await expect(viewer.page.getByTestId('refunds-role')).toHaveText(en.portal.refunds.roleCannotRefund);
});

test('every action a role may not run is refused when posted forged, and nothing changes; the owner’s same post runs', async ({ baseURL }) => {
  const actions = serverActionsUnder('app/portal/(merchant)/');
  expect([...actions.keys()].sort()).toEqual([...Object.keys(ACTIONS), ...EVERY_MEMBER].sort());
  const before = await snapshot();
  let refused = 0;
  for (const member of members.values()) {
    for (const [name, { roles, args }] of Object.entries(ACTIONS)) {
      if (roles.includes(member.role)) continue;
      const response = await postServerAction(member.context.request, actions.get(name)!, args({ owner, member }), baseURL!);
      const body = await response.text();
      expect(response.status(), `${member.role} ${name}`).toBeLessThan(500);
      expect(body, `${member.role} ${name}`).not.toContain('"ok":true');
      const redirected = `${response.headers()['x-action-redirect'] ?? ''}`;
      expect(redirected.includes('/portal/not-allowed') || /does not allow this|不能执行此操作/.test(body), `${member.role} ${name}: ${body.slice(0, 300)}`).toBe(true);
      refused += 1;
    }
  }
  const mayRun = (role: MemberRole) => Object.values(ACTIONS).filter((action) => action.roles.includes(role)).length;
  expect([mayRun('developer'), mayRun('finance'), mayRun('viewer')]).toEqual([13, 4, 0]);
  expect(refused).toBe(3 * Object.keys(ACTIONS).length - 13 - 4);
  expect(await snapshot()).toEqual(before);

  // The developer's reveal with the same post answers the secret: the refusals above are the role's.
  const reveal = await postServerAction(members.get('developer')!.context.request, actions.get('revealSecretAction')!, [MEMBER_PASSWORD], baseURL!);
  expect(await reveal.text()).toContain('"ok":true');
});

test('the owner changes a role and removes a member; the team keeps an owner; withdrawn, expired and unknown links say so', async ({ browser }, testInfo) => {
  const { page } = owner;
  const viewer = members.get('viewer')!;
  const developer = members.get('developer')!;
  await page.goto('/portal/team');
  const viewerRow = page.getByTestId('team-member').filter({ hasText: viewer.email });
  await viewerRow.getByLabel(en.fill(en.portal.team.members.roleOf, { email: viewer.email }), { exact: true }).selectOption('finance');
  await viewerRow.getByRole('button', { name: en.fill(en.portal.team.members.changeRole, { email: viewer.email }) }).click();
  await expect(page.getByRole('status').filter({ hasText: en.fill(en.portal.team.members.roleChanged, { email: viewer.email, role: en.role('finance') }) })).toBeVisible();
  await viewer.page.goto(`/portal/orders/${owner.pendingOrderNo}`);
  await expect(viewer.page.getByTestId('order-close')).toBeVisible();

  // The last owner cannot step down.
  const ownRow = page.getByTestId('team-member').filter({ hasText: owner.email });
  await ownRow.getByLabel(en.fill(en.portal.team.members.roleOf, { email: owner.email }), { exact: true }).selectOption('viewer');
  await ownRow.getByRole('button', { name: en.fill(en.portal.team.members.changeRole, { email: owner.email }) }).click();
  await expect(page.getByRole('alert').filter({ hasText: JSON.parse(readFileSync('messages/en/domain.json', 'utf8')).accounts.team.lastOwner })).toBeVisible();
  await page.reload();

  const developerRow = page.getByTestId('team-member').filter({ hasText: developer.email });
  await developerRow.getByRole('button', { name: en.fill(en.portal.team.members.remove, { email: developer.email }) }).click();
  await developerRow.getByRole('button', { name: en.fill(en.portal.team.members.confirmRemove, { email: developer.email }) }).click();
  await expect(page.getByRole('status').filter({ hasText: en.fill(en.portal.team.members.removed, { email: developer.email }) })).toBeVisible();
  await developer.page.goto('/portal/keys');
  await expect(developer.page).toHaveURL(/\/portal\/sign-in/);

  // A withdrawn link, an expired one and one that never was: a page that says which; no account made.
  const withdrawnEmail = uniqueEmail('team-withdrawn').toLowerCase();
  const withdrawn = await invite(withdrawnEmail, 'viewer');
  await page.reload();
  await page.getByRole('button', { name: en.fill(en.portal.team.invitations.revoke, { email: withdrawnEmail }) }).click();
  await expect(page.getByRole('status').filter({ hasText: en.fill(en.portal.team.invitations.revoked, { email: withdrawnEmail }) })).toBeVisible();
  const expiredEmail = uniqueEmail('team-expired').toLowerCase();
  const expired = await invite(expiredEmail, 'viewer');
  await db.query("UPDATE team_invitations SET expires_at = now() - interval '1 minute' WHERE email = $1", [expiredEmail]);
  for (const locale of ['en', 'zh-CN']) {
    const w = words(locale);
    const context = await contextIn(browser, testInfo, locale);
    const visitor = await context.newPage();
    for (const [link, state] of [
      [withdrawn, 'revoked'],
      [expired, 'expired'],
      ['/portal/invite/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'unknown'],
      ['/portal/invite/not-a-token', 'unknown'],
    ] as const) {
      await visitor.goto(link);
      await expect(visitor.getByRole('heading', { level: 1 }), `${locale} ${link}`).toHaveText(w.portal.invite.closed[state].title);
      await expect(visitor.getByLabel(w.portal.invite.password, { exact: true })).toHaveCount(0);
    }
    await expectAxeClean(visitor, `closed invitation (${locale})`);
    await context.close();
  }
  expect((await db.query('SELECT 1 FROM accounts WHERE email = ANY($1)', [[withdrawnEmail, expiredEmail]])).rowCount).toBe(0);
});

/** Sets up an authenticator app on the account page, as the person does with the QR code's secret; its recovery codes. */
async function setUpAuthenticator(page: Page): Promise<string[]> {
  const factor = en.portal.account.secondFactor;
  await page.goto('/portal/account');
  await page.getByRole('button', { name: factor.start }).click();
  const confirm = page.getByRole('form', { name: factor.confirmTitle });
  const secret = (await page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
  await confirm.getByLabel(factor.code).fill(authenticatorCode(secret));
  await confirm.getByRole('button', { name: factor.confirm }).click();
  const codes = page.getByRole('list', { name: factor.recoveryCodesTitle }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  return codes.allTextContents();
}

test('the owner requires two-step sign-in: a member without it opens only the account page until they set it up', async ({ baseURL }) => {
  const { page } = owner;
  const member = members.get('viewer')!; // finance by now
  const texts = en.portal.team.secondFactor;
  const domain = JSON.parse(readFileSync('messages/en/domain.json', 'utf8'));
  const recoveryCodes: string[] = [];
  const save = async () => {
    await page.goto('/portal/team');
    const form = page.locator('form', { has: page.getByLabel(texts.label) });
    await form.getByLabel(texts.label).check();
    // With the owner's app set up, the change asks the step-up: a recovery code answers it (the app's code would
    // wait for the next 30-second step after the set-up's).
    const stepUp = form.getByLabel(en.portal.stepUp.code);
    if (await stepUp.isVisible()) await stepUp.fill(recoveryCodes.shift()!);
    await form.getByRole('button', { name: texts.submit }).click();
  };
  // Not before the owner has an authenticator of their own.
  await save();
  await expect(page.getByRole('alert').filter({ hasText: domain.accounts.team.ownFactorFirst })).toBeVisible();
  recoveryCodes.push(...(await setUpAuthenticator(page)));
  // A forged post of the change without the step-up is refused, and the rule stays off.
  const forged = await postServerAction(page.request, serverActionsUnder('app/portal/(merchant)/').get('setTeamSecondFactorAction')!, [true], baseURL!);
  expect(await forged.text()).toContain(domain.accounts.stepUpCodeMissing);
  expect((await db.query('SELECT team_requires_second_factor AS on FROM merchants WHERE app_id = $1', [owner.appId])).rows[0].on).toBe(false);
  await save();
  await expect(page.getByRole('status').filter({ hasText: texts.savedOn })).toBeVisible();

  // The member's pages, actions and statement lead to the set-up; the navigation lists the account page alone.
  const orders = await member.context.request.get('/portal/orders', { maxRedirects: 0 });
  expect(orders.headers().location).toMatch(/\/portal\/account\?secondFactor=required$/);
  const close = await postServerAction(member.context.request, serverActionsUnder('app/portal/(merchant)/').get('closeOrderAction')!, [owner.pendingOrderNo], baseURL!);
  expect(close.headers()['x-action-redirect'] ?? '').toContain('/portal/account?secondFactor=required');
  expect((await db.query('SELECT status FROM orders WHERE order_no = $1', [owner.pendingOrderNo])).rows[0].status).toBe('pending');
  await member.page.goto(`/portal/orders/${owner.pendingOrderNo}`);
  await member.page.waitForURL(/\/portal\/account\?secondFactor=required$/);
  await expect(member.page.getByTestId('second-factor-required')).toContainText(`Team shop ${test.info().project.name}`);
  expect(await member.page.locator('[data-testid="back-office-nav"] nav a').evaluateAll((links) => [...new Set(links.map((link) => new URL((link as HTMLAnchorElement).href).pathname))])).toEqual(['/portal/account']);
  await expectAxeClean(member.page, 'account page, set-up required');

  await setUpAuthenticator(member.page);
  await member.page.goto(`/portal/orders/${owner.pendingOrderNo}`);
  await expect(member.page.getByTestId('order-close')).toBeVisible();
  expect((await db.query("SELECT count(*)::int AS n FROM audit_log WHERE action = 'team.second_factor_required' AND subject = $1", [`merchant:${owner.appId}`])).rows[0].n).toBe(1);

  // Off again: the finance member who joined in Chinese has none, and is handed the team next.
  const form = page.locator('form', { has: page.getByLabel(texts.label) });
  await page.goto('/portal/team');
  await form.getByLabel(texts.label).uncheck();
  await form.getByRole('button', { name: texts.submit }).click();
  await expect(page.getByRole('status').filter({ hasText: texts.savedOff })).toBeVisible();
});

test('the owner hands the team over: the member becomes an owner, the former owner loses the Team page', async () => {
  const finance = members.get('finance')!;
  const { page } = owner;
  await page.goto('/portal/team');
  const form = page.getByRole('form', { name: en.portal.team.transfer.heading });
  await form.getByLabel(en.portal.team.transfer.member).selectOption({ label: finance.email });
  await form.getByLabel(en.portal.team.transfer.ownRole).selectOption('developer');
  await form.getByRole('button', { name: en.portal.team.transfer.submit }).click();
  await expect(form.getByRole('alert').filter({ hasText: en.portal.team.transfer.confirmRequired }).first()).toBeVisible();
  await form.getByLabel(en.portal.team.transfer.confirm).check();
  await form.getByRole('button', { name: en.portal.team.transfer.submit }).click();
  await page.waitForURL(/\/portal$/);
  await page.goto('/portal/team');
  await expect(page.getByTestId('not-allowed')).toBeVisible();
  await finance.page.goto('/portal/team');
  await expect(finance.page.getByTestId('team-member')).toHaveCount(3);
  const roles = (await db.query('SELECT email, team_role FROM accounts WHERE merchant_id = $1 ORDER BY id', [owner.merchantId])).rows;
  expect(Object.fromEntries(roles.map((row) => [row.email, row.team_role]))).toEqual({ [owner.email]: 'developer', [finance.email]: 'owner', [members.get('viewer')!.email]: 'finance' });
});
