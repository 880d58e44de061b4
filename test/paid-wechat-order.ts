import { expect } from 'vitest';
import { getDb } from '../lib/db/client';
import { paySandboxWechatOrder } from '../sandbox/wechat/pay';
import type { TestApp } from './open-api-client';

let counter = 0;

/** A native WECHAT order submitted over the open API and paid at the WeChat Pay sandbox (its notification sent). */
export async function aPaidWechatOrder(app: TestApp, merchant: { appId: string; appSecret: string }, amount: string, prefix = 'WX') {
  counter += 1;
  const merchantOrderNo = `${prefix}-${process.pid}-${counter}-${Date.now()}`;
  const { json } = await app.signedPost(
    '/v1/api/open/order/submit',
    { appId: merchant.appId, merchantOrderNo, payType: 'WECHAT', payMethod: 'native', amount, productName: 'VIP', notifyUrl: 'https://merchant.example/notify' },
    merchant.appSecret,
  );
  expect(json.code).toBe(0);
  await paySandboxWechatOrder(getDb(), { outTradeNo: json.data.platformOrderNo });
  return { platformOrderNo: json.data.platformOrderNo as string, merchantOrderNo };
}
