import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { actionRefused, invalidParameter } from '../errors/domain-error';
import { orders, refunds, type OrderRow } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import type { AbnormalRemedy, ChannelRefunds } from './channel-refunds';
import { settleRefund } from './settle-refund';

export const ABNORMAL_REMEDY_TYPES = ['USER_BANK_CARD', 'MERCHANT_BANK_CARD'] as const;

/** The remedy a merchant chose, checked field by field (the payer's bank details only for USER_BANK_CARD). */
export function parseAbnormalRemedy(input: { type: string; bankType?: string; bankAccount?: string; realName?: string }): AbnormalRemedy {
  if (input.type === 'MERCHANT_BANK_CARD') return { type: 'MERCHANT_BANK_CARD' };
  if (input.type !== 'USER_BANK_CARD') throw invalidParameter(`type must be one of ${ABNORMAL_REMEDY_TYPES.join(', ')}`);
  const bankType = input.bankType?.trim() ?? '';
  const bankAccount = input.bankAccount?.replace(/\s+/g, '') ?? '';
  const realName = input.realName?.trim() ?? '';
  if (!/^[A-Z0-9_]{2,32}$/.test(bankType)) throw invalidParameter("bankType must be WeChat Pay's bank code, such as ICBC_DEBIT");
  if (!/^\d{8,32}$/.test(bankAccount)) throw invalidParameter('bankAccount must be the bank card number (8 to 32 digits)');
  if (realName === '' || [...realName].length > 64) throw invalidParameter("realName must be the card holder's name (at most 64 characters)");
  return { type: 'USER_BANK_CARD', bankType, bankAccount, realName };
}

/**
 * The merchant applies the upstream's remedy to one of its abnormal refunds (WeChat Pay's apply-abnormal-refund):
 * the answer is recorded as the refund's new outcome (PROCESSING again, then settled by the notification or the
 * poller); a refusal leaves the refund abnormal and is shown. Both are audited, without the payer's bank details.
 */
export async function remedyAbnormalRefund(
  db: Database,
  input: { merchantId: number; refundNo: string; remedy: AbnormalRemedy; channelOf: (order: OrderRow) => ChannelRefunds; actor: string; now: Date },
) {
  const [row] = await db
    .select()
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(and(eq(refunds.merchantId, input.merchantId), eq(refunds.refundNo, input.refundNo)));
  if (!row) throw actionRefused(`refund ${input.refundNo} not found`);
  if (row.refunds.state !== 'abnormal') throw actionRefused(`refund ${row.refunds.merchantRefundNo} is ${row.refunds.state}: only an abnormal refund has a remedy`);
  const channel = input.channelOf(row.orders);
  if (!channel.offered || !channel.remedyAbnormal) throw actionRefused(`channel ${row.orders.channel} has no remedy for an abnormal refund`);
  const audit = (after: { outcome: string; refusal?: string }) =>
    recordAudit(db, { actor: input.actor, action: 'refund.remedy', subject: `order:${row.orders.orderNo}`, after: { refundNo: row.refunds.refundNo, type: input.remedy.type, ...after } });
  const outcome = await channel.remedyAbnormal(db, { refund: row.refunds, order: row.orders }, input.remedy).catch(async (error: unknown) => {
    // Refused (or not answered), the refund stays abnormal; the attempt is on record all the same, with the
    // upstream's words (never the payer's bank details, which only the request carried, encrypted).
    await audit({ outcome: 'refused', refusal: (error instanceof Error ? error.message : String(error)).slice(0, 300) });
    throw error;
  });
  await audit({ outcome: outcome.state });
  await settleRefund(db, row.refunds.id, outcome, input.now);
  return outcome;
}
