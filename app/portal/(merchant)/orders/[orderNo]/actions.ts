'use server';

import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { closeMerchantOrder } from '@/lib/portal/close-merchant-order';
import { resendOrderNotification } from '@/lib/portal/resend-order-notification';
import { refusal, type ActionResult } from '../../../_session/action-result';
import { requireMerchant } from '../../../_session/require-merchant';

export async function resendNotificationAction(orderNo: string): Promise<ActionResult<{ cycle: number }>> {
  const merchant = await requireMerchant();
  try {
    const { cycle } = await resendOrderNotification(getDb(), merchant, { orderNo: String(orderNo), now: new Date() });
    revalidatePath(`/portal/orders/${encodeURIComponent(orderNo)}`);
    return { ok: true, data: { cycle } };
  } catch (error) {
    return refusal(error);
  }
}

export async function closeOrderAction(orderNo: string): Promise<ActionResult<{ status: string }>> {
  const merchant = await requireMerchant();
  try {
    const order = await closeMerchantOrder(getDb(), merchant, { orderNo: String(orderNo), now: new Date() });
    revalidatePath(`/portal/orders/${encodeURIComponent(orderNo)}`);
    return { ok: true, data: { status: order.status } };
  } catch (error) {
    return refusal(error);
  }
}
