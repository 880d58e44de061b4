// Sign and submit an order, query, close or refund it, receive the notifications. Node 18+, no packages.
//
//   export BASE_URL=http://localhost:3000 APP_ID=mch_YOUR_APP_ID APP_SECRET=...
//   node payment.mjs submit USDT ORDER-1 10.50 http://127.0.0.1:8080/notify   # or ALIPAY, WECHAT, YHT
//   node payment.mjs query USDT ORDER-1
//   node payment.mjs close ORDER-1   # a pending order, on any channel
//   node payment.mjs refund ORDER-3 REFUND-1 5.00 http://127.0.0.1:8080/notify   # part of a paid ALIPAY or WECHAT order
//   node payment.mjs refund-query REFUND-1
//   node payment.mjs receive         # your notifyUrl, on NOTIFY_PORT (8080); paid orders go to PAID_ORDERS_FILE,
//                                    # succeeded refunds to REFUNDS_FILE, abnormal ones to ABNORMAL_REFUNDS_FILE
//   node payment.mjs sign < fields   # one form-encoded set of fields a line -> its signature
import { createHash, timingSafeEqual } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:3000';
const APP_ID = process.env.APP_ID ?? 'mch_YOUR_APP_ID';
const APP_SECRET = process.env.APP_SECRET ?? ''; // Interface keys in the back office: keep it on your server, never in code
const NOTIFY_PORT = Number(process.env.NOTIFY_PORT ?? 8080);
const PAID_ORDERS_FILE = process.env.PAID_ORDERS_FILE ?? 'paid-orders.txt';
const REFUNDS_FILE = process.env.REFUNDS_FILE ?? 'refunds.txt';
const ABNORMAL_REFUNDS_FILE = process.env.ABNORMAL_REFUNDS_FILE ?? 'abnormal-refunds.txt';

// What each channel needs besides the common fields; each names its amount differently.
const CHANNEL_FIELDS = {
  USDT: (amount) => ({ payType: 'USDT', pay_usdt: amount, chainType: '1' }),
  ALIPAY: (amount) => ({ payType: 'ALIPAY', payMethod: 'web', amount, redirectUrl: 'https://merchant.example/return' }),
  WECHAT: (amount) => ({ payType: 'WECHAT', payMethod: 'native', amount }),
  YHT: (amount) => ({ payType: 'YHT', channel: 'YHT', payMethod: 'aliPay', payMoney: amount }),
};

/** Non-empty fields but signature, sorted by name (ASCII), name=value joined by &, + &appsecret=…, MD5, upper-case hex. */
function sign(fields, appSecret) {
  const text = Object.keys(fields)
    .filter((name) => name !== 'signature' && fields[name] !== undefined && fields[name] !== null && fields[name] !== '')
    .sort() // UTF-16 order, which is ASCII order for ASCII names
    .map((name) => `${name}=${fields[name]}`)
    .join('&');
  return createHash('md5').update(`${text}&appsecret=${appSecret}`, 'utf8').digest('hex').toUpperCase();
}

async function post(path, fields) {
  const response = await fetch(BASE_URL + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...fields, signature: sign(fields, APP_SECRET) }),
  });
  return response.json(); // { code, message, data }: code 0 is success
}

function submit(channel, merchantOrderNo, amount, notifyUrl) {
  const fields = { appId: APP_ID, merchantOrderNo, notifyUrl, productName: 'VIP 会员', attach: 'user=42' };
  return post('/v1/api/open/order/submit', { ...fields, ...CHANNEL_FIELDS[channel](amount) });
}

function query(channel, merchantOrderNo) {
  return post('/v1/api/open/order/query', { appId: APP_ID, merchantOrderNo, payType: channel });
}

function close(merchantOrderNo) {
  return post('/v1/api/open/order/close', { appId: APP_ID, merchantOrderNo });
}

/** merchantRefundNo is the idempotency key: send the same fields again after no answer, never a new number. */
function refund(merchantOrderNo, merchantRefundNo, refundAmount, notifyUrl) {
  const fields = { appId: APP_ID, merchantOrderNo, merchantRefundNo, refundAmount, reason: 'goods returned' };
  if (notifyUrl) fields.notifyUrl = notifyUrl; // without it, no refund notice: query the refund instead
  return post('/v1/api/open/refund/submit', fields);
}

function refundQuery(merchantRefundNo) {
  return post('/v1/api/open/refund/query', { appId: APP_ID, merchantRefundNo });
}

/** Your own work, done before answering success: here a file stands in for your database. Idempotent, because the
 * same notification can arrive more than once. */
function recordOnce(file, number) {
  const recorded = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
  if (!recorded.includes(number)) appendFileSync(file, `${number}\n`);
}

function verified(form) {
  const expected = Buffer.from(sign(form, APP_SECRET));
  const given = Buffer.from((form.signature ?? '').toUpperCase());
  return form.appId === APP_ID && given.length === expected.length && timingSafeEqual(given, expected);
}

function receive() {
  createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      if (!verified(form)) return response.writeHead(400).end('bad signature'); // anything but success: not acknowledged
      try {
        // Only PAID is a payment: a refund notice (notifyType refund) or a close notice (CLOSED, EXPIRED) is not.
        if (form.notifyType === 'refund') {
          if (form.status === 'succeeded') recordOnce(REFUNDS_FILE, form.merchantRefundNo);
          // an abnormal refund (WeChat Pay ABNORMAL): the money left your balance, the payer could not take it; apply the remedy in the portal, never refund it again
          else if (form.status === 'abnormal') recordOnce(ABNORMAL_REFUNDS_FILE, form.merchantRefundNo);
        } else if (form.status === 'PAID') recordOnce(PAID_ORDERS_FILE, form.merchantOrderNo);
      } catch {
        return response.writeHead(500).end('try again'); // not recorded: the service sends it again
      }
      response.writeHead(200, { 'Content-Type': 'text/plain' }).end('success');
    });
  }).listen(NOTIFY_PORT);
}

async function main([command, ...args]) {
  if (command === 'receive') return receive();
  if (command === 'sign') {
    for await (const line of createInterface({ input: process.stdin })) console.log(sign(Object.fromEntries(new URLSearchParams(line)), APP_SECRET));
    return;
  }
  const run = { submit, query, close, refund, 'refund-query': refundQuery }[command];
  if (!run) throw new Error('usage: node payment.mjs submit|query|close|refund|refund-query|receive|sign …');
  const answer = await run(...args);
  console.log(JSON.stringify(answer));
  process.exitCode = answer.code === 0 ? 0 : 1;
}

await main(process.argv.slice(2));
