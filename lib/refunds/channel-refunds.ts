import type { Database } from '../db/client';
import type { OrderRow, RefundRow } from '../db/schema';

/** One refund as a channel sends it upstream: always the same refundNo and amount, however often it is sent. */
export interface RefundAttempt {
  order: OrderRow;
  refund: RefundRow;
}

/**
 * What the upstream made of a refund request or query. `failed` only for a documented definitive refusal: anything
 * else is `unknown`: no answer to trust (a timeout, a system error, an unrecognised code, an answer that does not
 * verify): the same refund is asked about and sent again, never a new one. `not_found`: the upstream has no refund of
 * that number (never received): it may be sent again. `abnormal`: WeChat Pay's ABNORMAL, the money left the
 * merchant's balance but the payer's account could not take it; it waits for the merchant's remedy.
 * `finishedAt` / `acceptedAt` are the upstream's own times (Alipay's gmt_refund_pay, WeChat's success_time /
 * create_time): reconciliation matches the bill by them.
 */
export type RefundOutcome =
  | { state: 'succeeded'; upstreamRefundId?: string; finishedAt?: Date; acceptedAt?: Date }
  | { state: 'processing'; upstreamRefundId?: string; acceptedAt?: Date }
  | { state: 'failed'; reason: string }
  | { state: 'abnormal'; reason: string; upstreamRefundId?: string; acceptedAt?: Date }
  | { state: 'closed'; reason: string }
  | { state: 'unknown'; reason: string }
  | { state: 'not_found' };

/**
 * WeChat Pay's remedies for an abnormal refund (apply-abnormal-refund's `type`): to the payer's bank card (its bank,
 * number and holder's name), or back to the merchant's own bank account (the merchant then pays the payer itself).
 */
export type AbnormalRemedy = { type: 'MERCHANT_BANK_CARD' } | { type: 'USER_BANK_CARD'; bankType: string; bankAccount: string; realName: string };

/** The remedy a merchant chose, as the portal's form sends it: read by the channel, whose upstream sets the rules. */
export interface AbnormalRemedyInput {
  type: string;
  bankType?: string;
  bankAccount?: string;
  realName?: string;
}

/** An upstream's remedy for its abnormal refunds: how it reads the merchant's choice, and how it applies it. */
export interface AbnormalRefundRemedy {
  /** The choice checked field by field by the upstream's rules (its bank codes…); else an invalid_parameter DomainError naming the field. */
  parse(input: AbnormalRemedyInput): AbnormalRemedy;
  /** Applies it to an abnormal refund; the answer is the refund's new outcome. */
  apply(db: Database, attempt: RefundAttempt, remedy: AbnormalRemedy): Promise<RefundOutcome>;
}

/** How a channel refunds: by its upstream's refund API, or not at all (then why, and how the merchant refunds). */
export type ChannelRefunds =
  | {
      readonly offered: true;
      /** A refusal the upstream's rules make certain, said before anything is sent (WeChat: 50 per order, one year). */
      refuseBefore?(order: OrderRow, context: { refundsSoFar: number; now: Date }): string | undefined;
      /** Sends the refund (the first time, or again after an unknown outcome). */
      request(db: Database, attempt: RefundAttempt): Promise<RefundOutcome>;
      /** Asks the upstream how the refund stands (the poller). */
      check(db: Database, attempt: RefundAttempt): Promise<RefundOutcome>;
      /** The upstream's remedy for an abnormal refund (WeChat Pay only). */
      readonly abnormalRemedy?: AbnormalRefundRemedy;
    }
  | { readonly offered: false; readonly refusal: string };
