-- Trades and refunds on the upstream account that this service never created (another app or shop on the same
-- Alipay PID / WeChat Pay mchid) are their own low-severity kind, not "paid upstream, not here".
ALTER TABLE "reconciliation_findings" DROP CONSTRAINT "reconciliation_findings_kind_check";--> statement-breakpoint
ALTER TABLE "reconciliation_findings" ADD CONSTRAINT "reconciliation_findings_kind_check" CHECK ("reconciliation_findings"."kind" in ('missing_here', 'missing_upstream', 'amount_differs', 'status_differs', 'refund_outside', 'transfer_no_order', 'not_made_here'));--> statement-breakpoint
-- When the upstream accepted a refund (WeChat Pay's create_time): WeChat's trade bill lists a refund on that day.
ALTER TABLE "refunds" ADD COLUMN "upstream_accepted_at" timestamp with time zone;--> statement-breakpoint
-- The simulated WeChat Pay's bill controls: a day whose bill is still being made, or served in the older layout.
CREATE TABLE "sandbox_wechat_bill_plans" (
	"mch_id" text NOT NULL,
	"day" date NOT NULL,
	"plan" text NOT NULL,
	CONSTRAINT "sandbox_wechat_bill_plans_pkey" PRIMARY KEY("mch_id","day"),
	CONSTRAINT "sandbox_wechat_bill_plans_plan_check" CHECK ("sandbox_wechat_bill_plans"."plan" in ('creating', 'legacy'))
);
