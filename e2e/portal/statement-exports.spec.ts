import http from 'node:http';
import { expect, test } from '@playwright/test';
import { signUp, uniqueEmail, withDatabase } from '../factories';

/**
 * One statement export per merchant at a time: while a download of a large statement is still streaming, a second
 * download by the same merchant is told to wait (429, Retry-After, a message saying so) instead of starting another
 * export beside it; once the first download ends (here: the client goes away mid-way) the next one starts.
 */
test('a second statement download while the first streams is told to wait; after the first ends, one starts again', async ({ page, baseURL }, testInfo) => {
  test.setTimeout(240_000); // first visits compile each page in development mode
  const appId = await signUp(page, { name: `Export shop ${testInfo.project.name}`, email: uniqueEmail(`export-${testInfo.project.name}`) });
  await withDatabase((client) =>
    client.query(
      `INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, status, currency, requested_amount_minor, pay_amount_minor, pay_token, expires_at, created_at, paid_at, trade_no, product_name)
       SELECT 'EX' || m.id || '-' || g, m.id, 'EX-' || g, 'ALIPAY', 'paid', 'CNY', 100 + g, 100 + g, md5(m.id || '-' || g), now(), now() - make_interval(secs => g), now(), 'T' || g, repeat('statement row ', 100)
       FROM merchants m, generate_series(1, 30000) AS g WHERE m.app_id = $1`,
      [appId],
    ),
  );
  const day = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const path = `/portal/statement?from=${from}&to=${day}`;
  const cookie = (await page.context().cookies()).map(({ name, value }) => `${name}=${value}`).join('; ');

  // The first download: its first bytes arrive, then the client stops reading (the export waits on it, holding its turn).
  // The statement (about 40 MB) is larger than what loopback's socket buffers can hold (a 4 MB send buffer here, and
  // the receive buffer grows to tens of MB), so the export cannot finish unread and give its turn back early.
  const first = await new Promise<{ response: http.IncomingMessage; request: http.ClientRequest }>((resolve, reject) => {
    const request = http.get(`${baseURL}${path}`, { headers: { cookie } }, (response) => {
      response.once('data', () => {
        response.pause();
        resolve({ response, request });
      });
    });
    request.on('error', reject);
  });
  expect(first.response.statusCode).toBe(200);

  const second = await page.request.get(path);
  expect(second.status()).toBe(429);
  expect(second.headers()['retry-after']).toBe('30');
  expect(await second.text()).toBe('A statement of this account is already being downloaded. Wait until that download finishes, then download again.');

  first.request.destroy();
  await expect.poll(async () => (await page.request.get(path)).status(), { timeout: 30_000 }).toBe(200);
});
