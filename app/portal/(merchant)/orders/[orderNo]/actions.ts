'use server';

import { assertRoleMay } from '@/lib/accounts/team-roles';
import { revalidatePath } from 'next/cache';
import { getTranslations } from 'next-intl/server';
import { getDb } from '@/lib/db/client';
import { closeMerchantOrder } from '@/lib/portal/close-merchant-order';
import { resendOrderNotification } from '@/lib/portal/resend-order-notification';
import { recordWalletRefundFromPortal, refundFromPortal, refundLatePaymentFromPortal, remedyAbnormalFromPortal } from '@/lib/portal/order-refunds';
import { refusal, type ActionResult } from '../../../_session/action-result';
import { requireMerchant } from '../../../_session/require-merchant';

export async function resendNotificationAction(orderNo: string): Promise<ActionResult<{ cycle: number }>> {
  const merchant = await requireMerchant();
  try {
    assertRoleMay(merchant, 'resendNotifications');
    const { cycle } = await resendOrderNotification(getDb(), merchant, { orderNo: String(orderNo), now: new Date() });
    revalidatePath(`/portal/orders/${encodeURIComponent(orderNo)}`);
    return { ok: true, data: { cycle } };
  } catch (error) {
    return refusal(error);
  }
}

export interface RefundFormInput {
  amount: string;
  reason: string;
  transactionId: string;
  password: string;
  confirmed: boolean;
}

/** The order's refund (or, for a channel the service does not refund on, the record of one made from the merchant's wallet). */
export async function refundOrderAction(orderNo: string, input: RefundFormInput, wallet: boolean): Promise<ActionResult<{ status: string }>> {
  const merchant = await requireMerchant();
  try {
    assertRoleMay(merchant, 'refund');
    if (input.confirmed !== true) {
      const t = await getTranslations('portal.refunds');
      return { ok: false, message: t('confirmRequired'), fieldErrors: { confirmed: t('confirmRequired') } };
    }
    const common = { orderNo: String(orderNo), amount: String(input.amount), password: String(input.password), now: new Date() };
    const { refund } = wallet
      ? await recordWalletRefundFromPortal(getDb(), merchant, { ...common, transactionId: String(input.transactionId), note: String(input.reason) })
      : await refundFromPortal(getDb(), merchant, { ...common, reason: String(input.reason) });
    revalidatePath(`/portal/orders/${encodeURIComponent(orderNo)}`);
    return { ok: true, data: { status: refund.state } };
  } catch (error) {
    return refusal(error);
  }
}

export interface AbnormalRemedyInput {
  type: string;
  bankType: string;
  bankAccount: string;
  realName: string;
  password: string;
}

/** WeChat Pay's remedy for one of the order's abnormal refunds. */
export async function remedyAbnormalRefundAction(orderNo: string, refundNo: string, input: AbnormalRemedyInput): Promise<ActionResult<{ status: string }>> {
  const merchant = await requireMerchant();
  try {
    assertRoleMay(merchant, 'refund');
    const outcome = await remedyAbnormalFromPortal(getDb(), merchant, {
      orderNo: String(orderNo),
      refundNo: String(refundNo),
      type: String(input.type),
      bankType: String(input.bankType ?? ''),
      bankAccount: String(input.bankAccount ?? ''),
      realName: String(input.realName ?? ''),
      password: String(input.password),
      now: new Date(),
    });
    revalidatePath(`/portal/orders/${encodeURIComponent(orderNo)}`);
    return { ok: true, data: { status: outcome.state === 'unknown' || outcome.state === 'not_found' ? 'abnormal' : outcome.state } };
  } catch (error) {
    return refusal(error);
  }
}

/** Refunds in full a payment that arrived after the order was closed. */
export async function refundLatePaymentAction(orderNo: string, password: string): Promise<ActionResult<{ status: string }>> {
  const merchant = await requireMerchant();
  try {
    assertRoleMay(merchant, 'refund');
    const refund = await refundLatePaymentFromPortal(getDb(), merchant, { orderNo: String(orderNo), password: String(password), now: new Date() });
    revalidatePath(`/portal/orders/${encodeURIComponent(orderNo)}`);
    return { ok: true, data: { status: refund.state } };
  } catch (error) {
    return refusal(error);
  }
}

export async function closeOrderAction(orderNo: string): Promise<ActionResult<{ status: string }>> {
  const merchant = await requireMerchant();
  try {
    assertRoleMay(merchant, 'closeOrders');
    const order = await closeMerchantOrder(getDb(), merchant, { orderNo: String(orderNo), now: new Date() });
    revalidatePath(`/portal/orders/${encodeURIComponent(orderNo)}`);
    return { ok: true, data: { status: order.status } };
  } catch (error) {
    return refusal(error);
  }
}
