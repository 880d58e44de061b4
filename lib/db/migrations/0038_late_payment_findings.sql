-- A bill's payment of an order closed here is a late payment (refunded, never credited), not "paid upstream, not
-- here": its own kinds, recorded here or not.
ALTER TABLE "reconciliation_findings" DROP CONSTRAINT "reconciliation_findings_kind_check";--> statement-breakpoint
ALTER TABLE "reconciliation_findings" ADD CONSTRAINT "reconciliation_findings_kind_check" CHECK ("reconciliation_findings"."kind" in ('missing_here', 'missing_upstream', 'amount_differs', 'status_differs', 'refund_outside', 'transfer_no_order', 'not_made_here', 'late_payment', 'late_payment_unrecorded'));
