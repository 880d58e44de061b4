import { expect, test, type Page } from '@playwright/test';
import { aPendingUsdtOrderOf, signUp, uniqueEmail, withDatabase } from '../factories';

/**
 * The probe's forged server actions: the portal's close-order action, replayed outside the browser with the
 * merchant's session cookie, ran without an Origin header and with `Origin: evil` plus `X-Forwarded-Host: evil.example`.
 * Now both are refused with 403 and the order stays pending; the same request with the service's own Origin (what
 * the browser sends) closes it, so the replay is a real action.
 */
const statusOf = (orderId: number) => withDatabase(async (client) => (await client.query<{ status: string }>('SELECT status FROM orders WHERE id = $1', [orderId])).rows[0]!.status);

/** The close action's request as the page sends it, caught before it leaves the browser. */
async function capturedCloseAction(page: Page): Promise<{ url: string; headers: Record<string, string>; body: string }> {
  let captured: { url: string; headers: Record<string, string>; body: string } | undefined;
  await page.route('**/portal/orders/**', async (route) => {
    const request = route.request();
    if (request.method() !== 'POST' || !request.headers()['next-action']) return route.continue();
    captured = { url: request.url(), headers: request.headers(), body: request.postData() ?? '' };
    await route.abort();
  });
  await page.getByRole('button', { name: 'Close order' }).click();
  await page.getByRole('button', { name: 'Yes, close it' }).click();
  await expect.poll(() => captured !== undefined).toBe(true);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  return captured!;
}

test('a forged close-order server action without Origin, or with Origin: evil and X-Forwarded-Host: evil.example, is refused', async ({ page, baseURL }, testInfo) => {
  test.setTimeout(180_000); // first visits compile each page in development mode
  const appId = await signUp(page, { name: `Forged action shop ${testInfo.project.name}`, email: uniqueEmail(`forged-${testInfo.project.name}`) });
  const order = await aPendingUsdtOrderOf(appId);
  await page.goto(`/portal/orders/${order.orderNo}`);
  const action = await capturedCloseAction(page);
  expect(action.headers.origin).toBe(baseURL);

  const replay = (extra: Record<string, string>) =>
    page.request.post(action.url, {
      headers: { 'next-action': action.headers['next-action']!, accept: 'text/x-component', 'content-type': action.headers['content-type'] ?? 'text/plain;charset=UTF-8', ...extra },
      data: action.body,
      maxRedirects: 0,
      failOnStatusCode: false,
    });

  const withoutOrigin = await replay({});
  expect(withoutOrigin.status()).toBe(403);
  expect(await withoutOrigin.text()).toContain('without an Origin header');
  expect(await statusOf(order.id)).toBe('pending');

  const evil = await replay({ origin: 'evil', 'x-forwarded-host': 'evil.example' });
  expect(evil.status()).toBe(403);
  const evilSite = await replay({ origin: 'http://evil.example', 'x-forwarded-host': 'evil.example' });
  expect(evilSite.status()).toBe(403);
  expect(await statusOf(order.id)).toBe('pending');

  const own = await replay({ origin: baseURL! });
  expect(own.status()).toBe(200);
  await expect.poll(() => statusOf(order.id)).toBe('closed');
});
