import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { channelNamed, CHANNELS, type ChannelName } from '../channels';
import { submitByPayType } from '../channels/open-api-orders';
import type { Database } from '../db/client';
import { orders } from '../db/schema';
import { notFound } from '../errors/domain-error';
import { findMerchantForSigning } from '../merchants/merchants';
import { payUrlFor } from '../orders/identifiers';
import type { MerchantContext } from './merchant-context';

/** The payment methods a test order may use, per channel (the first is the default), from the registry. */
export const TEST_ORDER_METHODS: Readonly<Record<ChannelName, readonly string[]>> = Object.fromEntries(
  CHANNELS.map((channel) => [channel.name, channel.testOrder.payMethods]),
) as Record<ChannelName, readonly string[]>;
export type TestOrderChannel = ChannelName;

export interface TestOrderInput {
  channel: TestOrderChannel;
  payMethod: string;
  amount: string;
  notifyUrl: string;
  redirectUrl?: string;
  /** The product name the checkout shows, in the merchant's language (default "Test order"). */
  productName?: string;
}

export type TestOrderResult = { orderNo: string; merchantOrderNo: string; payUrl: string };

/** The open API's submit fields of a test order, as the merchant's server would send them. */
export function testOrderFields(input: TestOrderInput, merchantOrderNo: string): Record<string, string | undefined> {
  const common = { payType: input.channel, merchantOrderNo, notifyUrl: input.notifyUrl, redirectUrl: input.redirectUrl || undefined, productName: input.productName || 'Test order', attach: 'portal-test' };
  const channel = channelNamed(input.channel);
  if (!channel) throw new Error(`no channel named ${input.channel}`);
  return { ...common, ...channel.testOrder.fields({ amount: input.amount, payMethod: input.payMethod }) };
}

/**
 * A test order of the signed-in merchant, created by the open API's own submit (same checks, same codes); the caller
 * offers it only while the sandbox is on, so it is paid by the built-in simulators, never by a real upstream.
 */
export async function createTestOrder(db: Database, context: MerchantContext, input: TestOrderInput): Promise<TestOrderResult> {
  const signing = await findMerchantForSigning(db, context.appId);
  if (!signing) throw notFound('merchant');
  const merchantOrderNo = `TEST-${Date.now()}-${randomBytes(3).toString('hex')}`;
  // A refusal (a DomainError) reaches the form as the open API's would, in the merchant's language.
  await submitByPayType({ db, merchant: signing.merchant, fields: testOrderFields(input, merchantOrderNo), clientAddress: '127.0.0.1', isTest: true });
  const [order] = await db
    .select({ orderNo: orders.orderNo, payToken: orders.payToken })
    .from(orders)
    .where(and(eq(orders.merchantId, context.merchantId), eq(orders.merchantOrderNo, merchantOrderNo)));
  if (!order) throw new Error(`test order ${merchantOrderNo} was accepted but not stored`);
  return { orderNo: order.orderNo, merchantOrderNo, payUrl: payUrlFor(order.payToken) };
}
