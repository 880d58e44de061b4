CREATE TABLE "reconciliation_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"channel" text NOT NULL,
	"scope" text NOT NULL,
	"credential_id" integer,
	"status" text NOT NULL,
	"detail" text,
	"upstream_count" integer DEFAULT 0 NOT NULL,
	"upstream_total_minor" bigint DEFAULT 0 NOT NULL,
	"upstream_refund_count" integer DEFAULT 0 NOT NULL,
	"upstream_refund_total_minor" bigint DEFAULT 0 NOT NULL,
	"ours_count" integer DEFAULT 0 NOT NULL,
	"ours_total_minor" bigint DEFAULT 0 NOT NULL,
	"finding_count" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "reconciliation_runs_day_scope_key" UNIQUE("day","channel","scope"),
	CONSTRAINT "reconciliation_runs_status_check" CHECK ("reconciliation_runs"."status" in ('complete', 'unavailable', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "reconciliation_findings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"reference" text NOT NULL,
	"upstream_reference" text DEFAULT '' NOT NULL,
	"order_id" bigint,
	"upstream_amount_minor" bigint,
	"ours_amount_minor" bigint,
	"upstream_status" text,
	"ours_status" text,
	"upstream_at" timestamp with time zone,
	"resolved_at" timestamp with time zone,
	"resolved_by" text,
	CONSTRAINT "reconciliation_findings_item_key" UNIQUE("run_id","kind","reference","upstream_reference"),
	CONSTRAINT "reconciliation_findings_kind_check" CHECK ("reconciliation_findings"."kind" in ('missing_here', 'missing_upstream', 'amount_differs', 'status_differs', 'refund_outside', 'transfer_no_order'))
);
--> statement-breakpoint
CREATE TABLE "reconciliation_upstream_rows" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"reference" text NOT NULL,
	"upstream_reference" text NOT NULL,
	"refund_reference" text DEFAULT '' NOT NULL,
	"amount_minor" bigint NOT NULL,
	"status" text NOT NULL,
	"occurred_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_alipay_console_refunds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"trade_no" text NOT NULL,
	"out_request_no" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"refunded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sandbox_alipay_console_refunds_out_request_no_unique" UNIQUE("out_request_no")
);
--> statement-breakpoint
CREATE TABLE "sandbox_wechat_console_refunds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transaction_id" text NOT NULL,
	"out_refund_no" text NOT NULL,
	"refund_id" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"refunded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sandbox_wechat_console_refunds_out_refund_no_unique" UNIQUE("out_refund_no"),
	CONSTRAINT "sandbox_wechat_console_refunds_refund_id_unique" UNIQUE("refund_id")
);
--> statement-breakpoint
ALTER TABLE "reconciliation_findings" ADD CONSTRAINT "reconciliation_findings_run_id_reconciliation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."reconciliation_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_upstream_rows" ADD CONSTRAINT "reconciliation_upstream_rows_run_id_reconciliation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."reconciliation_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reconciliation_findings_open_idx" ON "reconciliation_findings" USING btree ("id") WHERE "reconciliation_findings"."resolved_at" IS NULL;--> statement-breakpoint
CREATE INDEX "reconciliation_upstream_rows_run_reference_idx" ON "reconciliation_upstream_rows" USING btree ("run_id","reference");--> statement-breakpoint
CREATE INDEX "orders_channel_paid_idx" ON "orders" USING btree ("channel","paid_at") WHERE "orders"."status" = 'paid';
