import { eq } from 'drizzle-orm';
import { actionRefused, DomainError } from '../errors/domain-error';
import { domainMessage, type DomainMessage } from '../errors/domain-message';
import type { Database } from '../db/client';
import { attentionDismissals, merchants, notifications, orders, upstreamCallbacks } from '../db/schema';
import { chainTransfers } from '../channels/usdt/chain/schema';
import { recordAudit } from '../audit/record-audit';
import { UNEVENTFUL_VERDICTS } from '../channels/list-upstream-callbacks';
import { completeOrderManually } from '../orders/complete-order-manually';
import { resendNotice } from '../orders/resend-notification';
import { ATTENTION_KINDS, TRANSFER_ATTENTION_VERDICTS, type AttentionKind } from '../channels/attention-items';

export const NOTE_MAX_LENGTH = 500;

/** The state of an attention item as the audit log records it, and the order it is about (if any). */
interface ItemState {
  state: Record<string, unknown>;
  orderId: number | null;
  /** Still needs attention: the verdict or status that put it on the list. */
  open: boolean;
}

async function lockItem(tx: Database, kind: AttentionKind, itemId: number): Promise<ItemState | undefined> {
  if (kind === 'transfer') {
    const [row] = await tx.select().from(chainTransfers).where(eq(chainTransfers.id, itemId)).for('update');
    if (!row) return undefined;
    return {
      state: { verdict: row.verdict, transactionId: row.transactionId, toAddress: row.toAddress, valueRaw: row.valueRaw },
      orderId: row.orderId,
      open: (TRANSFER_ATTENTION_VERDICTS as readonly string[]).includes(row.verdict),
    };
  }
  if (kind === 'callback') {
    const [row] = await tx.select().from(upstreamCallbacks).where(eq(upstreamCallbacks.id, itemId)).for('update');
    if (!row) return undefined;
    return {
      state: { channel: row.channel, verdict: row.verdict, outTradeNo: row.outTradeNo, tradeNo: row.tradeNo, detail: row.detail },
      orderId: row.orderId,
      open: !UNEVENTFUL_VERDICTS.includes(row.verdict),
    };
  }
  const [row] = await tx.select().from(notifications).where(eq(notifications.id, itemId)).for('update');
  if (!row) return undefined;
  return { state: { status: row.status, cycle: row.cycle, attempts: row.attemptCount, lastError: row.lastError }, orderId: row.orderId, open: row.status === 'failed' };
}

function checkKind(kind: string): AttentionKind {
  if (!(ATTENTION_KINDS as readonly string[]).includes(kind)) throw actionRefused(`kind must be one of ${ATTENTION_KINDS.join(', ')}`);
  return kind as AttentionKind;
}

function checkId(itemId: number, kind: AttentionKind): number {
  if (!Number.isSafeInteger(itemId) || itemId <= 0) throw actionRefused(`${kind} not found: ${itemId}`);
  return itemId;
}

function checkText(text: string, field: 'note' | 'reason'): string {
  const trimmed = text.trim();
  // The English message for the CLI and the logs; the console's form shows the field's error in the operator's words.
  const refuse = (message: string, problem: DomainMessage) =>
    new DomainError('action_refused', { message: `${field}: ${message}`, userMessage: problem, fieldErrors: { [field]: problem } });
  if (trimmed === '') throw refuse(`a ${field} is required`, field === 'note' ? domainMessage('attention.noteRequired') : domainMessage('attention.reasonRequired'));
  if (trimmed.length > NOTE_MAX_LENGTH) throw refuse(`at most ${NOTE_MAX_LENGTH} characters`, domainMessage('attention.textTooLong', { max: NOTE_MAX_LENGTH }));
  return trimmed;
}

/** Inserts the dismissal and its audit entry inside `tx`; refuses an item that is unknown, resolved or already dismissed. */
async function dismissWithin(tx: Database, input: { kind: AttentionKind; itemId: number; note: string; actor: string; now: Date }, item: ItemState) {
  const inserted = await tx
    .insert(attentionDismissals)
    .values({ kind: input.kind, itemId: input.itemId, note: input.note, actor: input.actor, createdAt: input.now })
    .onConflictDoNothing()
    .returning({ id: attentionDismissals.id });
  if (inserted.length === 0) throw actionRefused(`${input.kind} ${input.itemId} is already dismissed`);
  const auditId = await recordAudit(tx, {
    actor: input.actor,
    action: 'attention.dismiss',
    subject: `${input.kind}:${input.itemId}`,
    reason: input.note,
    before: item.state,
    after: { ...item.state, dismissed: true },
  });
  return { dismissalId: inserted[0]!.id, auditId };
}

/**
 * Sets an item aside with a note: it leaves the attention list and the dismissal (who, when, the note, the item's
 * state) is in the audit log, written in the same transaction. The item itself is not changed.
 */
export async function dismissAttentionItem(db: Database, input: { kind: string; itemId: number; note: string; actor: string; now: Date }) {
  const kind = checkKind(input.kind);
  const itemId = checkId(input.itemId, kind);
  const note = checkText(input.note, 'note');
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const item = await lockItem(tx, kind, itemId);
    if (!item) throw actionRefused(`${kind} not found: ${itemId}`);
    if (!item.open) throw actionRefused(`${kind} ${itemId} does not need attention`);
    return dismissWithin(tx, { kind, itemId, note, actor: input.actor, now: input.now }, item);
  });
}

/**
 * Completes by hand the order a transfer or callback is about (a late payment, a short payment the merchant
 * accepted…), with a reason: the order is marked paid and notified (lib/orders/complete-order-manually.ts, audited
 * `order.complete`) and the item is dismissed with that reason, all in one transaction.
 */
export async function completeOrderFromAttention(db: Database, input: { kind: string; itemId: number; reason: string; actor: string; now: Date }) {
  const kind = checkKind(input.kind);
  if (kind === 'notification') throw actionRefused('a notification is about a paid order: resend it instead');
  const itemId = checkId(input.itemId, kind);
  const reason = checkText(input.reason, 'reason');
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const item = await lockItem(tx, kind, itemId);
    if (!item) throw actionRefused(`${kind} not found: ${itemId}`);
    if (!item.open) throw actionRefused(`${kind} ${itemId} does not need attention`);
    if (item.orderId === null) throw actionRefused(`${kind} ${itemId} is not linked to an order: dismiss it with a note instead`);
    const [order] = await tx
      .select({ appId: merchants.appId, merchantOrderNo: orders.merchantOrderNo })
      .from(orders)
      .innerJoin(merchants, eq(merchants.id, orders.merchantId))
      .where(eq(orders.id, item.orderId));
    const completed = await completeOrderManually(tx, { appId: order!.appId, merchantOrderNo: order!.merchantOrderNo, reason, actor: input.actor, now: input.now });
    await dismissWithin(tx, { kind, itemId, note: `order ${completed.order.orderNo} completed by hand: ${reason}`, actor: input.actor, now: input.now }, item);
    return completed;
  });
}

/**
 * "This transfer pays that order": an unmatched chain transfer (no order at its amount, a wrong amount) is assigned
 * by the operator to the USDT order it pays, named by its platform order number, with a reason. The order is
 * completed through the manual completion (paid, notified, audited `order.complete` with the transaction id), the
 * transfer is linked to it and dismissed with that reason, all in one transaction.
 */
export async function assignTransferToOrder(db: Database, input: { transferId: number; orderNo: string; reason: string; actor: string; now: Date }) {
  const itemId = checkId(input.transferId, 'transfer');
  const reason = checkText(input.reason, 'reason');
  const orderNo = input.orderNo.trim();
  if (orderNo === '') throw actionRefused('orderNo: the order number is required');
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const item = await lockItem(tx, 'transfer', itemId);
    if (!item) throw actionRefused(`transfer not found: ${itemId}`);
    if (!item.open) throw actionRefused(`transfer ${itemId} does not need attention`);
    const [transfer] = await tx.select({ transactionId: chainTransfers.transactionId, fromAddress: chainTransfers.fromAddress }).from(chainTransfers).where(eq(chainTransfers.id, itemId));
    const [order] = await tx
      .select({ id: orders.id, channel: orders.channel, appId: merchants.appId, merchantOrderNo: orders.merchantOrderNo })
      .from(orders)
      .innerJoin(merchants, eq(merchants.id, orders.merchantId))
      .where(eq(orders.orderNo, orderNo));
    if (!order) throw actionRefused(`orderNo: order not found: ${orderNo}`);
    if (order.channel !== 'USDT') throw actionRefused(`orderNo: order ${orderNo} is a ${order.channel} order, not paid by a chain transfer`);
    const completed = await completeOrderManually(tx, {
      appId: order.appId,
      merchantOrderNo: order.merchantOrderNo,
      reason,
      actor: input.actor,
      now: input.now,
      payment: { tradeNo: transfer!.transactionId, payer: transfer!.fromAddress },
    });
    await tx.update(chainTransfers).set({ orderId: order.id }).where(eq(chainTransfers.id, itemId));
    await dismissWithin(tx, { kind: 'transfer', itemId, note: `assigned to order ${orderNo}: ${reason}`, actor: input.actor, now: input.now }, item);
    return completed;
  });
}

/** Resends a notification that failed every attempt: a new delivery cycle (lib/orders/resend-notification.ts, audited). */
export async function resendFailedNotification(db: Database, input: { notificationId: number; actor: string; now: Date }) {
  const notificationId = checkId(input.notificationId, 'notification');
  return resendNotice(db, { notificationId, actor: input.actor, now: input.now });
}
