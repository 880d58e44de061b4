import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { admin, anOperator, anotherBrowser, randomTronAddress, revealAppSecret, signInAsOperator, signUp, uniqueEmail, withDatabase } from '../factories';
import { signed } from '../../test/beds/contract-signer';

/**
 * One state per order: an order of each channel is walked through every state it can be in (pending; past its window
 * but not yet closed by the expiry job; closed; paid by an operator after closing) and at each step the four surfaces
 * that show it must name the same state: the open API's query answer, the payer's checkout (page and its poll), the
 * merchant's portal (list and detail) and the operator's console.
 */
type State = 'pending' | 'paid' | 'closed';

const WIRE_STATE: Record<string, State> = { '0': 'pending', '1': 'paid', '2': 'closed', '1n': 'pending', '2n': 'paid', '3n': 'closed' };
const CHECKOUT_STATE: Record<string, State> = { pending: 'pending', paid: 'paid', expired: 'closed' };
// A closed order here is always one whose time ran out: every surface says "expired" (a close by the merchant or the payer says so too).
const LABELS: Record<State, string> = { pending: '待支付', paid: '已支付', closed: '已过期' };

interface PlacedOrder {
  channel: string;
  orderNo: string;
  merchantOrderNo: string;
  payPath: string;
  payToken: string;
  queryFields: Record<string, string>;
}

/** The data-order-state of the element that carries `marker` (an attribute naming the order, or a test id). */
function stateIn(html: string, marker: string): string | undefined {
  const at = html.indexOf(marker);
  if (at < 0) return undefined;
  const tagStart = html.lastIndexOf('<', at);
  const tag = html.slice(tagStart, html.indexOf('>', at) + 1);
  return /data-order-state="([a-z]+)"/.exec(tag)?.[1];
}

/** The text right inside the element that carries `marker`. */
function labelIn(html: string, marker: string): string | undefined {
  const at = html.indexOf(marker);
  if (at < 0) return undefined;
  const start = html.indexOf('>', at) + 1;
  return html.slice(start, html.indexOf('<', start)).trim();
}

async function htmlOf(request: APIRequestContext, path: string): Promise<string> {
  const response = await request.get(path, { headers: { 'accept-language': 'zh-CN' } });
  expect(response.status(), path).toBe(200);
  return response.text();
}

test('every surface shows the one state of each channel\'s order, at every step of its life', async ({ page, browser, request }, testInfo) => {
  test.setTimeout(300_000);
  const appId = await signUp(page, { name: `One state ${testInfo.project.name}`, email: uniqueEmail('one-state') });
  const appSecret = await revealAppSecret(page);
  admin('merchant', 'orders', 'on', '--app-id', appId);
  for (const channel of ['YHT', 'WECHAT', 'ALIPAY']) {
    try {
      admin('credential', 'add', '--app-id', appId, '--channel', channel, '--sandbox', '--approve', '--enable');
    } catch {
      // YHT may be configured by environment and need no credential; its submit below says so if not.
    }
  }
  admin('address', 'add', '--chain', 'TRC20', randomTronAddress());

  const submit = async (channel: string, fields: Record<string, string>, queryFields: Record<string, string>): Promise<PlacedOrder> => {
    const merchantOrderNo = `ONE-${channel}-${Date.now()}-${randomBytes(3).toString('hex')}`;
    const body = await (
      await request.post('/v1/api/open/order/submit', { data: signed({ appId, merchantOrderNo, notifyUrl: 'https://shop.example/notify', ...fields }, appSecret) })
    ).json();
    expect(body.code, `${channel} submit: ${body.message}`).toBe(0);
    const payUrl = new URL(body.data.payUrl);
    const orderNo = body.data.orderNo ?? body.data.platformOrderNo;
    return { channel, orderNo, merchantOrderNo, payPath: `${payUrl.pathname}${payUrl.search}`, payToken: payUrl.pathname.split('/').at(-1)!, queryFields };
  };
  const placed = [
    await submit('USDT', { pay_usdt: `${100 + Math.floor(Math.random() * 800)}.${Math.floor(Math.random() * 90 + 10)}`, chainType: '1' }, {}),
    await submit('YHT', { payType: 'YHT', channel: 'YHT', payMethod: 'aliPay', payMoney: '12.5' }, { payType: 'YHT' }),
    await submit('WECHAT', { payType: 'WECHAT', payMethod: 'native', amount: '12.50' }, { payType: 'WECHAT' }),
    await submit('ALIPAY', { payType: 'ALIPAY', payMethod: 'web', amount: '12.50' }, { payType: 'ALIPAY' }),
  ];

  const operatorContext = await anotherBrowser(browser, testInfo);
  const operatorPage = await operatorContext.newPage();
  await signInAsOperator(operatorPage, anOperator('one-state'));

  /** Every surface's state of the order, by surface. */
  const surfaces = async (order: PlacedOrder): Promise<Record<string, string | undefined>> => {
    const query = await (await request.post('/v1/api/open/order/query', { data: signed({ appId, merchantOrderNo: order.merchantOrderNo, ...order.queryFields }, appSecret) })).json();
    expect(query.code, JSON.stringify(query)).toBe(0);
    const wire = typeof query.data.status === 'number' ? `${query.data.status}n` : String(query.data.status);
    const checkoutHtml = await htmlOf(request, order.payPath);
    const poll = await (await request.get(`/pay/${order.payToken}/status`)).json();
    const listHtml = await htmlOf(page.request, `/portal/orders?q=${encodeURIComponent(order.merchantOrderNo)}`);
    const detailHtml = await htmlOf(page.request, `/portal/orders/${encodeURIComponent(order.orderNo)}`);
    const consoleHtml = await htmlOf(operatorPage.request, `/operator/merchants/${appId}`);
    return {
      query: WIRE_STATE[wire],
      checkout: stateIn(checkoutHtml, 'data-order-state'),
      checkoutPoll: CHECKOUT_STATE[poll.status],
      portalList: stateIn(listHtml, `data-order-no="${order.orderNo}"`),
      portalDetail: stateIn(detailHtml, 'data-testid="order-status"'),
      console: stateIn(consoleHtml, `data-order-no="${order.orderNo}"`),
      // What a Chinese reader sees: the same word on the checkout, in the portal and in the console.
      checkoutLabel: labelIn(checkoutHtml, 'class="state-pill"'),
      portalLabel: labelIn(detailHtml, 'data-testid="order-status"'),
      consoleLabel: labelIn(consoleHtml, `data-order-no="${order.orderNo}"`),
    };
  };
  const expectEverywhere = async (state: State) => {
    for (const order of placed) {
      const seen = await surfaces(order);
      const label = LABELS[state];
      expect(seen, `${order.channel} order ${order.orderNo}`).toEqual({
        query: state,
        checkout: state,
        checkoutPoll: state,
        portalList: state,
        portalDetail: state,
        console: state,
        checkoutLabel: label,
        portalLabel: label,
        consoleLabel: label,
      });
    }
  };
  const tokens = placed.map((order) => order.payToken);

  await expectEverywhere('pending');

  // Past the window, before the expiry job has closed it: closed everywhere already.
  await withDatabase((client) => client.query(`UPDATE orders SET expires_at = now() - interval '1 minute' WHERE pay_token = ANY($1)`, [tokens]));
  await expectEverywhere('closed');

  // Closed by the job.
  await withDatabase((client) => client.query(`UPDATE orders SET status = 'closed', closed_at = now(), holds_slot = false WHERE pay_token = ANY($1)`, [tokens]));
  await expectEverywhere('closed');

  // An operator completes each one by hand (the payer had paid): paid everywhere.
  for (const order of placed) admin('order', 'complete', '--app-id', appId, '--merchant-order-no', order.merchantOrderNo, '--reason', 'one-state walk');
  await expectEverywhere('paid');
  await operatorContext.close();
});
