import type { FindingKind } from '../db/schema';

/** What decides whether a finding may be credited to its order: the finding, and its order as it stands now. */
export interface CreditCandidate {
  id: number;
  kind: FindingKind;
  resolvedAt: Date | null;
  upstreamAmountMinor: bigint | null;
  /** When the upstream says it took the payment. */
  upstreamAt: Date | null;
  /** The order here (null when the finding names none). */
  order: { orderNo: string; status: string; payAmountMinor: bigint; closedAt: Date | null; latePaymentRecorded: boolean } | null;
}

/**
 * Why a finding cannot be credited, or null when it can: the console offers the credit only then, and creditFinding
 * refuses with this reason. A payment that came after the order was closed here is never credited, whatever the
 * finding says (a run made before the order closed, or before its late payment was recorded): the merchant closed it,
 * or its window was over, so the money goes back to the payer (the order's late payment refund). One taken before
 * the close (its notification lost, the poll unanswered until the window was over) is the order's and is credited.
 */
export function creditRefusal(finding: CreditCandidate): string | null {
  const { order } = finding;
  if (finding.resolvedAt) return `finding ${finding.id} was credited already`;
  if (order && (finding.kind === 'late_payment' || (order.status !== 'paid' && order.latePaymentRecorded))) {
    return `order ${order.orderNo} is closed and this payment is its late payment (it arrived after the close): a late payment is never credited; refund it from the order's page instead`;
  }
  if (order && (finding.kind === 'late_payment_unrecorded' || (order.status === 'closed' && !paidBeforeClose(finding.upstreamAt, order.closedAt)))) {
    const paid = finding.upstreamAt ? `the upstream took it at ${finding.upstreamAt.toISOString()}` : 'the upstream gives no time for it';
    const closed = order.closedAt ? ` at ${order.closedAt.toISOString()}` : '';
    return `order ${order.orderNo} was closed${closed} and ${paid}: a payment after the close is never credited; refund it instead (in the upstream's console)`;
  }
  if (finding.kind !== 'missing_here' || !order) return `finding ${finding.id} is not a payment to credit to an order here`;
  if (order.status === 'paid') return `order ${order.orderNo} is already paid`;
  if (finding.upstreamAmountMinor !== order.payAmountMinor) return `finding ${finding.id}: the upstream's amount differs from the order's`;
  return null;
}

/** Whether the upstream took the payment before the order closed here (unknown times are not "before"). */
const paidBeforeClose = (paidAt: Date | null, closedAt: Date | null) => paidAt !== null && closedAt !== null && paidAt.getTime() < closedAt.getTime();
