import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders, upstreamOrders, type OrderRow, type UpstreamOrderRow } from '../db/schema';
import { DomainError, isDomainError } from '../errors/domain-error';
import { type DirectChannelAdapter, type StartedDirectPayment } from './direct-channel-adapter';
import { findUsableCredential, type UsableCredential } from '../credentials/find-usable-credential';
import { formatMinorUnits } from '../money/decimal-amount';
import { findMerchantOrder } from './find-order';
import { newOrderNo, newPayToken, payUrlFor } from './identifiers';
import { renewedUpstream } from './renew-direct-cashier';
import { countOrderEvent } from '../observability/metrics';
import { log } from '../observability/logger';

/** A direct order's submit, as its channel parsed it (lib/channels/direct/direct-request.ts, yht-request.ts). */
export interface DirectOrderInput {
  merchantOrderNo: string;
  /** The channel's payMethod. */
  payMethod: string;
  amountMinor: bigint;
  /** Present only when the merchant sent it (idempotency rule 2 compares it then). */
  credentialId?: number;
  notifyUrl: string;
  redirectUrl?: string;
  /** Absent only where the channel stores no default name. */
  productName?: string;
  productDesc?: string;
  attach?: string;
  /** The payer's IP as the merchant sent it (e.g. an h5 payment's payer address); absent: the submit request's address. */
  clientIp?: string;
}

export interface CreatedDirectOrder {
  order: OrderRow;
  upstream: UpstreamOrderRow | undefined;
  recovered: boolean;
}

const conflict = (detail: string) => new DomainError('idempotency_conflict', { message: detail });

/**
 * A repeat create (spec idempotency rules 1–4): same channel, amount and payMethod; an explicit credentialId of the
 * first request must be sent again, the same. The original order keeps its bound credential; notifyUrl,
 * redirectUrl, product information and attach are not compared.
 */
function recoverExisting(adapter: DirectChannelAdapter, existing: OrderRow, input: DirectOrderInput): void {
  const number = existing.merchantOrderNo;
  if (existing.channel !== adapter.channel) throw conflict(`merchantOrderNo ${number} is already used by a ${existing.channel} order`);
  if (existing.requestedAmountMinor !== input.amountMinor) {
    throw conflict(`${adapter.amountField} differs from the original order ${number} (${formatMinorUnits(existing.requestedAmountMinor)})`);
  }
  if (existing.payMethod !== input.payMethod) throw conflict(`payMethod differs from the original order ${number} (${existing.payMethod})`);
  if (existing.credentialExplicit && input.credentialId !== existing.credentialId) {
    throw conflict(`credentialId must be ${existing.credentialId}, as sent with the original order ${number}`);
  }
}

async function upstreamOf(db: Database, orderId: number): Promise<UpstreamOrderRow | undefined> {
  const [row] = await db.select().from(upstreamOrders).where(eq(upstreamOrders.orderId, orderId)).limit(1);
  return row;
}

/** The merchant's usable credential for a channel paid to the merchant's own account (1009 when there is none). */
async function credentialFor(db: Database, merchantId: number, adapter: DirectChannelAdapter, input: DirectOrderInput): Promise<UsableCredential | undefined> {
  if (adapter.credentials === 'platform') return undefined;
  const credential = await findUsableCredential(db, merchantId, adapter.channel, input.credentialId);
  if (!credential) throw new DomainError('credential_unusable', { message: `${adapter.channel} credential not found, not approved, or not enabled` });
  return credential;
}

/**
 * Creates an order of an upstream channel, on the merchant's usable credential where the channel pays the
 * merchant's own account (1009 when there is none). The adapter starts
 * the upstream payment first; only when it accepted are the order (and the upstream's answer) written, in one
 * transaction. A refused or unreachable upstream is 1011 and writes nothing. Concurrent creates of one
 * merchantOrderNo yield one order: the loser answers as a retry.
 */
export async function createDirectOrder(
  db: Database,
  merchantId: number,
  adapter: DirectChannelAdapter,
  input: DirectOrderInput,
  context: { clientIp: string; now?: Date; requestId?: string; isTest?: boolean },
): Promise<CreatedDirectOrder> {
  const channel = adapter.channel;
  const now = context.now ?? new Date();
  const existing = await findMerchantOrder(db, merchantId, input.merchantOrderNo);
  if (existing) {
    recoverExisting(adapter, existing, input);
    return { order: existing, upstream: await renewedUpstream(db, adapter, existing, await upstreamOf(db, existing.id), now), recovered: true };
  }

  const credential = await credentialFor(db, merchantId, adapter, input);
  const orderNo = newOrderNo(adapter.orderNoPrefix, now);
  const payToken = newPayToken();
  const expiresAt = new Date(now.getTime() + adapter.payWindowMinutes() * 60_000);
  const { requestId } = context;
  const startedAt = Date.now();
  let started: StartedDirectPayment | undefined;
  try {
    started = await adapter.startPayment(credential, {
      orderNo,
      amountMinor: input.amountMinor,
      payMethod: input.payMethod,
      subject: input.productName ?? 'Payment',
      description: input.productDesc,
      expiresAt,
      checkoutUrl: payUrlFor(payToken),
      clientIp: input.clientIp ?? context.clientIp,
    });
  } catch (error) {
    if (isDomainError(error, 'upstream_failure')) log().warn({ component: 'orders', channel, requestId, orderNo, ms: Date.now() - startedAt }, `${channel.toLowerCase()}: create ${orderNo} failed: ${error.message}`);
    throw error;
  }

  const created = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [inserted] = await tx
      .insert(orders)
      .values({
        orderNo,
        merchantId,
        merchantOrderNo: input.merchantOrderNo,
        channel,
        currency: 'CNY',
        requestedAmountMinor: input.amountMinor,
        payAmountMinor: input.amountMinor,
        payMethod: input.payMethod,
        credentialId: credential?.id,
        credentialExplicit: input.credentialId !== undefined,
        productName: input.productName,
        productDesc: input.productDesc,
        notifyUrl: input.notifyUrl,
        redirectUrl: input.redirectUrl,
        attach: input.attach,
        payToken,
        expiresAt,
        upstreamCheckAfter: adapter.firstUpstreamCheck(now),
        requestId,
        isTest: context.isTest ?? false,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: [orders.merchantId, orders.merchantOrderNo] })
      .returning();
    if (!inserted) return undefined;
    let upstream: UpstreamOrderRow | undefined;
    if (started) {
      [upstream] = await tx
        .insert(upstreamOrders)
        .values({
          orderId: inserted.id,
          channel,
          upstreamOrderNo: started.upstreamOrderNo,
          cashierUrl: started.cashierUrl,
          qrContent: started.qrContent,
          cashierIssuedAt: now,
          payerClientIp: started.payerClientIp,
          createdAt: now,
        })
        .returning();
    }
    return { order: inserted, upstream };
  });
  if (created) {
    countOrderEvent(channel, 'created');
    // One line per direct order (its submit waited for an upstream round trip anyway): the request, the order, the upstream's time.
    log().info({ component: 'orders', channel, requestId, orderNo, upstreamMs: started ? Date.now() - startedAt : undefined }, 'order created');
    return { ...created, recovered: false };
  }

  // Created concurrently under the same merchantOrderNo: answer as a retry would. The upstream payment started for
  // this attempt is never shown to a payer, so it cannot be paid; it lapses upstream at the end of its window.
  const raced = await findMerchantOrder(db, merchantId, input.merchantOrderNo);
  if (!raced) throw new Error(`order ${input.merchantOrderNo} vanished during a concurrent create`);
  recoverExisting(adapter, raced, input);
  return { order: raced, upstream: await upstreamOf(db, raced.id), recovered: true };
}
