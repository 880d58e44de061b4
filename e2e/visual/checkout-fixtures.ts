import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { signed } from '../../test/beds/contract-signer';
import { randomTronAddress } from '../factories';

/**
 * Checkout orders of every channel on a running service, made the way a merchant makes them (the operator CLI for the
 * merchant, its sandbox credentials and a receiving address; the signed open API for the orders). Shared by the
 * visual specs and `npm run bench:checkout`; `env` says which database the CLIs use (the service's).
 */
export const FIXTURE_MERCHANT = 'Tea House 茶室';
export const FIXTURE_RETURN_URL = 'https://shop.example/return';

export interface CheckoutFixtureOptions {
  baseURL: string;
  env: NodeJS.ProcessEnv;
  /** Each order's redirectUrl (default none: a paid page then stays put instead of leaving for the shop). */
  redirectUrl?: string;
  /** The direct channels given sandbox credentials (default all). */
  channels?: string[];
}

export interface FixtureOrder {
  /** The payUrl's path and query (a WeChat h5 payUrl is the upstream's page, here the sandbox's). */
  path: string;
  payToken: string;
  merchantOrderNo: string;
}

export interface CheckoutFixture {
  appId: string;
  appSecret: string;
  usdt: () => Promise<FixtureOrder>;
  yht: (payMethod: string) => Promise<FixtureOrder>;
  wechat: (payMethod: 'native' | 'h5') => Promise<FixtureOrder>;
  alipay: (payMethod: 'web' | 'wap') => Promise<FixtureOrder>;
  complete: (order: FixtureOrder) => void;
  /** Puts orders into a state directly (one process for all): paid, expired, or gone (closed over a day ago). */
  setStates: (changes: [FixtureOrder, 'paid' | 'expired' | 'gone'][]) => void;
}

/** Runs a script (TypeScript through tsx, or the compiled CLI's JavaScript) and answers what it printed. */
function run(env: NodeJS.ProcessEnv, script: string, args: string[]): string {
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  return execFileSync(process.execPath, [...loader, script, ...args], { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * A JSON POST on a connection of its own: the fixture's process lives across spec files, and a kept-alive socket the
 * busy development server closes just as a submit reuses it fails the submit ("other side closed").
 */
function postOnNewConnection(url: string, body: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (error) {
          reject(error);
        }
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

export function checkoutFixture({ baseURL, env, redirectUrl = '', channels = ['YHT', 'WECHAT', 'ALIPAY'] }: CheckoutFixtureOptions): CheckoutFixture {
  const admin = (...args: string[]) => JSON.parse(run(env, 'dist/cli/admin.js', [...args, '--json']));
  const merchant = admin('merchant', 'create', '--name', FIXTURE_MERCHANT, '--orders', 'on') as { appId: string; appSecret: string };
  for (const channel of channels) {
    try {
      admin('credential', 'add', '--app-id', merchant.appId, '--channel', channel, '--sandbox', '--approve', '--enable');
    } catch {
      // YHT may need no credential where it is configured by environment; the submit says so if it does.
    }
  }
  admin('address', 'add', '--chain', 'TRC20', randomTronAddress());
  let sequence = 0;
  const submit = async (fields: Record<string, string>): Promise<FixtureOrder> => {
    sequence += 1;
    const merchantOrderNo = `FX-${Date.now()}-${sequence}-${randomBytes(3).toString('hex')}`;
    const body = (await postOnNewConnection(
      `${baseURL}/v1/api/open/order/submit`,
      JSON.stringify(signed({ appId: merchant.appId, merchantOrderNo, notifyUrl: 'https://shop.example/notify', ...fields }, merchant.appSecret)),
    )) as { code: number; message: string; data?: { payUrl: string } };
    if (body.code !== 0 || !body.data) throw new Error(`submit ${JSON.stringify(fields)}: ${body.code} ${body.message}`);
    const payUrl = new URL(body.data.payUrl);
    return { path: `${payUrl.pathname}${payUrl.search}`, payToken: payUrl.pathname.split('/').at(-1)!, merchantOrderNo };
  };
  return {
    ...merchant,
    // A unique amount per order, so each sits on a free address slot whatever ran before.
    usdt: () => submit({ pay_usdt: `${100 + Math.floor(Math.random() * 800)}.${Math.floor(Math.random() * 90 + 10)}`, chainType: '1', productName: 'Oolong tea 乌龙茶', redirectUrl }),
    yht: (payMethod) => submit({ payType: 'YHT', channel: 'YHT', payMethod, payMoney: '88.5', productName: 'Oolong tea 乌龙茶', redirectUrl }),
    wechat: (payMethod) => submit({ payType: 'WECHAT', payMethod, amount: '88.50', productName: 'Oolong tea 乌龙茶', redirectUrl }),
    alipay: (payMethod) => submit({ payType: 'ALIPAY', payMethod, amount: '88.50', productName: 'Oolong tea 乌龙茶', returnUrl: redirectUrl }),
    complete: (order) => void admin('order', 'complete', '--app-id', merchant.appId, '--merchant-order-no', order.merchantOrderNo, '--reason', 'fixture'),
    setStates: (changes) => void run(env, 'e2e/visual/set-order-states.ts', changes.map(([order, state]) => `${order.payToken}=${state}`)),
  };
}
