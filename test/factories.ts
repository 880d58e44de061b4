import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { getDb } from '../lib/db/client';
import { addReceivingAddress } from '../lib/channels/usdt/receiving-addresses';
import { usdtMerchantLimits } from '../lib/channels/usdt/schema';
import { createMerchant } from '../lib/merchants/merchants';
import { tronAddressFromAccountBytes } from '../lib/channels/usdt/tron/address';
import { wechatChannelAdapter } from '../lib/channels/wechat/adapter';
import { wechatSandboxCredentialInput } from '../lib/channels/wechat/sandbox-keys';
import type { StartedDirectPayment } from '../lib/orders/direct-channel-adapter';
import { reviewCredential, submitCredential } from '../lib/credentials/credentials';
import { credentialChannelNamed } from '../lib/channels/index';
import { findUsableCredential, type UsableCredential } from '../lib/credentials/find-usable-credential';
import type { WechatCredentialInput } from '../lib/channels/wechat/credential-form';
import { orders, upstreamOrders, type OrderRow, type UpstreamOrderRow } from '../lib/db/schema';
import { newOrderNo, newPayToken, payUrlFor } from '../lib/orders/identifiers';

/**
 * A merchant that may place orders. `wholePool`: its USDT orders may take every slot of the shared receiving pool
 * (as an operator's `pool set --held-slots none --amount-slots none` allows), for tests of the slot rule itself,
 * where one merchant's orders stand for many merchants'.
 */
export async function aMerchant(options: { orderPermission?: boolean; wholePool?: boolean } = {}) {
  const { merchant, appSecret } = await createMerchant(getDb(), { name: 'Test merchant', orderPermission: options.orderPermission ?? true });
  if (options.wholePool) await getDb().insert(usdtMerchantLimits).values({ merchantId: merchant.id, maxHeldSlots: 0, maxAmountSlots: 0 });
  return { ...merchant, appSecret };
}

/** How many orders the database holds (a refused submit must write none). */
export async function orderCount(): Promise<number> {
  const { rows } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM orders`);
  return rows[0]!.count;
}

export function aTronAddress(): string {
  return tronAddressFromAccountBytes(randomBytes(20));
}

export async function receivingAddresses(count: number): Promise<string[]> {
  const added: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const address = aTronAddress();
    await addReceivingAddress(getDb(), 'TRC20', address);
    added.push(address);
  }
  return added;
}

/**
 * A WECHAT credential of the merchant bound to the built-in WeChat sandbox's keys (or to `input`), approved and
 * enabled, as the direct channels' submit finds it.
 */
export async function aWechatCredential(merchantId: number, input?: WechatCredentialInput): Promise<UsableCredential> {
  const db = getDb();
  const now = new Date();
  const credential = input ?? (await wechatSandboxCredentialInput(db));
  const submitted = await submitCredential(db, credentialChannelNamed('WECHAT'), { merchantId, actor: 'test', now, credential });
  await reviewCredential(db, { credentialId: submitted.id, decision: 'approve', actor: 'test', now });
  return (await findUsableCredential(db, merchantId, 'WECHAT', submitted.id))!;
}

export interface WechatOrderOptions {
  merchantId: number;
  credential: UsableCredential;
  payMethod?: 'native' | 'h5';
  amountMinor?: bigint;
  productName?: string;
  notifyUrl?: string;
  redirectUrl?: string;
  attach?: string;
  /** Default: 30 minutes from now. */
  expiresAt?: Date;
  /** The upstream's answer; by default WeChat (the sandbox, WECHAT_API_BASE_URL) is asked through the adapter. */
  upstream?: StartedDirectPayment;
  createdAt?: Date;
}

/**
 * A WECHAT order with its upstream_orders row, written as the direct channels' submit writes them (the open API's
 * WECHAT submit is wired at merge): platform order number, pay token, the adapter's answer, one transaction.
 */
export async function aWechatOrder(options: WechatOrderOptions): Promise<{ order: OrderRow; upstream: UpstreamOrderRow; payUrl: string }> {
  const db = getDb();
  const now = options.createdAt ?? new Date();
  const orderNo = newOrderNo(wechatChannelAdapter.orderNoPrefix, now);
  const payToken = newPayToken();
  const payMethod = options.payMethod ?? 'native';
  const amountMinor = options.amountMinor ?? 1234n;
  const expiresAt = options.expiresAt ?? new Date(now.getTime() + 30 * 60_000);
  const started =
    options.upstream ??
    (await wechatChannelAdapter.startPayment(options.credential, {
      orderNo,
      amountMinor,
      payMethod,
      subject: options.productName ?? 'Payment',
      expiresAt,
      checkoutUrl: payUrlFor(payToken),
      clientIp: '203.0.113.7',
    }))!;
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as typeof db;
    const [order] = await tx
      .insert(orders)
      .values({
        orderNo,
        merchantId: options.merchantId,
        merchantOrderNo: `WX-${orderNo}`,
        channel: 'WECHAT',
        currency: 'CNY',
        requestedAmountMinor: amountMinor,
        payAmountMinor: amountMinor,
        payMethod,
        credentialId: options.credential.id,
        productName: options.productName ?? 'Payment',
        notifyUrl: options.notifyUrl ?? 'https://merchant.example/notify',
        redirectUrl: options.redirectUrl,
        attach: options.attach,
        payToken,
        expiresAt,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const [upstream] = await tx
      .insert(upstreamOrders)
      .values({ orderId: order!.id, channel: 'WECHAT', upstreamOrderNo: started.upstreamOrderNo, cashierUrl: started.cashierUrl, qrContent: started.qrContent, createdAt: now })
      .returning();
    return { order: order!, upstream: upstream!, payUrl: wechatChannelAdapter.payUrlOf(order!, upstream) };
  });
}
