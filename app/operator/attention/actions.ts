'use server';

import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { assignTransferToOrder, completeOrderFromAttention, dismissAttentionItem, resendFailedNotification } from '@/lib/operator/attention-actions';
import { operatorActor } from '@/lib/operator/operator-context';
import { asId, asText, operatorAction, type OperatorActionResult } from '../_session/operator-action';

function refresh() {
  revalidatePath('/operator', 'layout');
}

/** Sets an item aside with a note (it leaves the list; the audit log keeps it). */
export async function dismissAttentionAction(input: { kind?: unknown; itemId?: unknown; note?: unknown }): Promise<OperatorActionResult<{ auditId: number }>> {
  return operatorAction(async (operator) => {
    const result = await dismissAttentionItem(getDb(), { kind: asText(input?.kind), itemId: asId(input?.itemId), note: asText(input?.note), actor: operatorActor(operator), now: new Date() });
    refresh();
    return { auditId: result.auditId };
  });
}

/** Completes by hand the order a transfer or callback is about, with a reason (paid, notified, audited). */
export async function completeOrderAction(input: { kind?: unknown; itemId?: unknown; reason?: unknown }): Promise<OperatorActionResult<{ orderNo: string }>> {
  return operatorAction(async (operator) => {
    const result = await completeOrderFromAttention(getDb(), { kind: asText(input?.kind), itemId: asId(input?.itemId), reason: asText(input?.reason), actor: operatorActor(operator), now: new Date() });
    refresh();
    return { orderNo: result.order.orderNo };
  });
}

/** "This transfer pays that order": assigns an unmatched transfer to a USDT order by its number (paid with its transaction id, notified, audited). */
export async function assignTransferAction(input: { itemId?: unknown; orderNo?: unknown; reason?: unknown }): Promise<OperatorActionResult<{ orderNo: string }>> {
  return operatorAction(async (operator) => {
    const result = await assignTransferToOrder(getDb(), { transferId: asId(input?.itemId), orderNo: asText(input?.orderNo), reason: asText(input?.reason), actor: operatorActor(operator), now: new Date() });
    refresh();
    return { orderNo: result.order.orderNo };
  });
}

/** A new delivery cycle of a notification that failed every attempt. */
export async function resendNotificationAction(notificationId: unknown): Promise<OperatorActionResult<{ cycle: number }>> {
  return operatorAction(async (operator) => {
    const result = await resendFailedNotification(getDb(), { notificationId: asId(notificationId), actor: operatorActor(operator), now: new Date() });
    refresh();
    return { cycle: result.cycle };
  });
}
