import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { prepared } from '../../db/prepared';
import { confirmMerchant, settleMerchantCheck } from '../../merchants/merchant-check';
import { orders, type OrderRow } from '../../db/schema';
import { DomainError } from '../../errors/domain-error';
import { formatMinorUnits } from '../../money/decimal-amount';
import { getUsdtMaxPerOrderMinor } from './max-per-order';
import { findMerchantOrder } from '../../orders/find-order';
import { orderTtlMinutes } from '../../orders/identifiers';
import { candidateSlots, releaseCooledSlot, type AmountSlot } from './amount-slots';
import { amountsWithinShare, noFreeSlotRefusal, withinAnyShare } from './fair-share';
import { keptWithinShare, merchantHoldings } from './merchant-holdings';
import { slotCooldownCutoff } from './slot-cooldown';
import { chainOf, insertOnFreeSlot, newOrderFields, type CreatedUsdtOrder, type UsdtOrderInput } from './insert-on-free-slots';
import { countOrderEvent } from '../../observability/metrics';
import { log } from '../../observability/logger';
import { currentDate, dateAt } from '../../clock';

export interface CreatedOrder {
  order: CreatedUsdtOrder;
  recovered: boolean;
}

/** A repeat create returns the original order when the immutable fields match (design: unique order key). */
function recoverExisting(existing: OrderRow, input: UsdtOrderInput): CreatedOrder {
  if (existing.channel !== 'USDT') {
    throw new DomainError('idempotency_conflict', { message: `merchantOrderNo ${existing.merchantOrderNo} is already used by a ${existing.channel} order` });
  }
  if (existing.requestedAmountMinor !== input.amountMinor) {
    throw new DomainError('idempotency_conflict', {
      message: `pay_usdt differs from the original order ${existing.merchantOrderNo} (${formatMinorUnits(existing.requestedAmountMinor)})`,
    });
  }
  if (existing.chainType !== input.chainType) {
    throw new DomainError('idempotency_conflict', { message: `chainType differs from the original order ${existing.merchantOrderNo}` });
  }
  return { order: existing, recovered: true };
}

/** The insert of a USDT order on a slot; nothing (no row returned) when the slot or the merchantOrderNo is taken. */
function insertOrder(db: Database) {
  return prepared(db, 'usdt_insert_order', (handle, name) =>
    handle
      .insert(orders)
      .values({
        orderNo: sql.placeholder('orderNo'),
        merchantId: sql.placeholder('merchantId'),
        merchantOrderNo: sql.placeholder('merchantOrderNo'),
        channel: 'USDT',
        currency: 'USDT',
        requestedAmountMinor: sql.placeholder('requestedAmountMinor'),
        payAmountMinor: sql.placeholder('payAmountMinor'),
        chainType: sql.placeholder('chainType'),
        receivingAddressId: sql.placeholder('receivingAddressId'),
        productName: sql.placeholder('productName'),
        notifyUrl: sql.placeholder('notifyUrl'),
        redirectUrl: sql.placeholder('redirectUrl'),
        attach: sql.placeholder('attach'),
        payToken: sql.placeholder('payToken'),
        expiresAt: sql.placeholder('expiresAt'),
        holdsSlot: true,
        requestId: sql.placeholder('requestId'),
        isTest: sql.placeholder('isTest'),
      })
      .onConflictDoNothing()
      .returning()
      .prepare(name),
  );
}

/** A new order (not one recovered for a retried submit), counted. */
function created(order: CreatedUsdtOrder): CreatedOrder {
  countOrderEvent('USDT', 'created');
  // debug: at info, a line per submit would cost the open API's throughput
  log().debug({ component: 'orders', channel: 'USDT', requestId: order.requestId ?? undefined, orderNo: order.orderNo }, 'order created');
  return { order, recovered: false };
}

/**
 * Creates a USDT order on a receiving address where no order holds the amount, else at amount + 0.01, else 1010
 * (the amount-slot rule: lib/channels/usdt/amount-slots.ts), within the merchant's share of the pool while other
 * merchants share it (fair-share.ts: 1010 naming the limit). An order holds its slot until it is paid or a
 * cool-down after its window (so a late transfer for it cannot pay the next order). Concurrent submits race on the
 * partial unique index, never on a read-then-write.
 */
export async function createUsdtOrder(db: Database, merchantId: number, input: UsdtOrderInput, now = currentDate()): Promise<CreatedOrder> {
  const expiresAt = dateAt(now.getTime() + orderTtlMinutes() * 60_000);
  const chain = chainOf(input);
  const inserted = await insertOnFreeSlot(db, merchantId, input, now, expiresAt);
  if (inserted) {
    if (input.merchantCheck) settleMerchantCheck(input.merchantCheck, true);
    return created(inserted.unlimitedShare ? inserted.order : await keptWithinShare(db, inserted.order, chain));
  }
  // Before anything below acts or answers: the remembered merchant row, if the request was checked against one.
  await confirmMerchant(db, input.merchantCheck);

  const existing = await findMerchantOrder(db, merchantId, input.merchantOrderNo);
  if (existing) return recoverExisting(existing, input);

  const limit = await getUsdtMaxPerOrderMinor(db);
  if (input.amountMinor > limit) {
    throw new DomainError('amount_over_limit', { message: `pay_usdt exceeds the platform per-order limit of ${formatMinorUnits(limit)} USDT` });
  }

  // The merchant's share of the pool (fair-share.ts): the pay amounts it may still take a slot of, else 1010 naming the limit.
  const holdings = await merchantHoldings(db, merchantId, input.chainType, chain, input.amountMinor);
  const allowedAmounts = amountsWithinShare(holdings, input.amountMinor);
  const kept = (order: OrderRow) => (withinAnyShare(holdings) ? order : keptWithinShare(db, order, chain));
  const cutoff = slotCooldownCutoff(now);
  const insertOn = (slot: AmountSlot) =>
    insertOrder(db).execute({
      ...newOrderFields(merchantId, input, now, expiresAt),
      requestedAmountMinor: input.amountMinor,
      payAmountMinor: slot.amountMinor,
      receivingAddressId: slot.addressId,
    });
  for (let round = 0; round < 3; round += 1) {
    const slots = (await candidateSlots(db, chain, input.amountMinor, cutoff)).filter((slot) => allowedAmounts.includes(slot.amountMinor));
    if (slots.length === 0) break;
    for (const slot of slots) {
      let [inserted] = await insertOn(slot);
      if (!inserted && (await releaseCooledSlot(db, slot, cutoff, now))) [inserted] = await insertOn(slot);
      if (inserted) return created(await kept(inserted));
      // Either the slot went to a concurrent order, or the same merchantOrderNo was created concurrently.
      const raced = await findMerchantOrder(db, merchantId, input.merchantOrderNo);
      if (raced) return recoverExisting(raced, input);
    }
  }
  throw noFreeSlotRefusal(holdings, input.amountMinor, allowedAmounts);
}
