import type { Database } from '../db/client';
import { orders, upstreamOrders, type OrderRow } from '../db/schema';
import { OpenApiError } from '../api/errors';
import { createYhtPayment, YhtUpstreamError } from '../channels/yht/client';
import { yhtConfig, YhtNotConfigured, type YhtConfig } from '../channels/yht/config';
import type { YhtPayMethod } from '../channels/yht/protocol';
import { formatMinorUnits } from '../money/decimal-amount';
import { findMerchantOrder } from './find-order';
import { newOrderNo, newPayToken, orderTtlMinutes, payUrlFor } from './identifiers';

export interface YhtOrderInput {
  merchantOrderNo: string;
  payMethod: YhtPayMethod;
  amountMinor: bigint;
  notifyUrl: string;
  redirectUrl?: string;
  productName?: string;
  attach?: string;
}

export interface CreatedYhtOrder {
  order: OrderRow;
  recovered: boolean;
}

/** A repeat create returns the original order when payMoney and payMethod match (design: unique order key). */
function recoverExisting(existing: OrderRow, input: YhtOrderInput): CreatedYhtOrder {
  if (existing.channel !== 'YHT') {
    throw new OpenApiError('idempotency_conflict', `merchantOrderNo ${existing.merchantOrderNo} is already used by a ${existing.channel} order`);
  }
  if (existing.requestedAmountMinor !== input.amountMinor) {
    throw new OpenApiError(
      'idempotency_conflict',
      `payMoney differs from the original order ${existing.merchantOrderNo} (${formatMinorUnits(existing.requestedAmountMinor)})`,
    );
  }
  if (existing.payMethod !== input.payMethod) {
    throw new OpenApiError('idempotency_conflict', `payMethod differs from the original order ${existing.merchantOrderNo} (${existing.payMethod})`);
  }
  return { order: existing, recovered: true };
}

function channelConfig(): YhtConfig {
  try {
    return yhtConfig();
  } catch (error) {
    if (!(error instanceof YhtNotConfigured)) throw error;
    console.error(`yht: channel unavailable: ${error.message}`);
    throw new OpenApiError('upstream_failure', 'YHT channel is not available');
  }
}

/**
 * Creates a YHT order. The upstream order is created first, under the platform order number chosen here; only when
 * the upstream accepted it are the order and its cashier data written, in one transaction. A refused or unreachable
 * upstream is 1011 and leaves no row: no order is ever shown as pending without a way to pay it.
 */
export async function createYhtOrder(db: Database, merchantId: number, input: YhtOrderInput, now = new Date()): Promise<CreatedYhtOrder> {
  const existing = await findMerchantOrder(db, merchantId, input.merchantOrderNo);
  if (existing) return recoverExisting(existing, input);

  const config = channelConfig();
  const orderNo = newOrderNo('YHT', now);
  const payToken = newPayToken();
  const expiresAt = new Date(now.getTime() + orderTtlMinutes() * 60_000);
  let upstream;
  try {
    upstream = await createYhtPayment(config, {
      outTradeNo: orderNo,
      amountMinor: input.amountMinor,
      payMethod: input.payMethod,
      subject: input.productName ?? 'Payment',
      // The payer comes back to our checkout, which shows the state we hold (never the browser's word).
      returnUrl: payUrlFor(payToken),
      expiresAt,
    });
  } catch (error) {
    if (!(error instanceof YhtUpstreamError)) throw error;
    console.error(`yht: create ${orderNo} failed: ${error.message}`);
    throw new OpenApiError('upstream_failure', error.reason);
  }

  const created = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [inserted] = await tx
      .insert(orders)
      .values({
        orderNo,
        merchantId,
        merchantOrderNo: input.merchantOrderNo,
        channel: 'YHT',
        currency: 'CNY',
        requestedAmountMinor: input.amountMinor,
        payAmountMinor: input.amountMinor,
        payMethod: input.payMethod,
        productName: input.productName,
        notifyUrl: input.notifyUrl,
        redirectUrl: input.redirectUrl,
        attach: input.attach,
        payToken,
        expiresAt,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: [orders.merchantId, orders.merchantOrderNo] })
      .returning();
    if (!inserted) return undefined;
    await tx.insert(upstreamOrders).values({
      orderId: inserted.id,
      channel: 'YHT',
      upstreamOrderNo: upstream.tradeNo,
      cashierUrl: upstream.cashierUrl,
      qrContent: upstream.qrContent,
      createdAt: now,
    });
    return inserted;
  });
  if (created) return { order: created, recovered: false };

  // The same merchantOrderNo was created concurrently: answer as a retry would. The upstream order made for this
  // attempt is never shown to a payer, so it cannot be paid; it expires upstream at the end of the window.
  const raced = await findMerchantOrder(db, merchantId, input.merchantOrderNo);
  if (!raced) throw new Error(`order ${input.merchantOrderNo} vanished during a concurrent create`);
  return recoverExisting(raced, input);
}
