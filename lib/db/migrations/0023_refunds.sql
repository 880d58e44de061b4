-- Refunds: several per paid order, their sum held by the order row. refund_reserved_minor counts every refund not
-- failed or closed (processing or succeeded); refunded_minor the succeeded ones. The CHECKs make the database refuse
-- a total above what was paid, whatever the interleaving of concurrent requests.
ALTER TABLE "orders" ADD COLUMN "refund_reserved_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_refund_total_check" CHECK (0 <= "orders"."refunded_minor" AND "orders"."refunded_minor" <= "orders"."refund_reserved_minor" AND "orders"."refund_reserved_minor" <= "orders"."pay_amount_minor");--> statement-breakpoint
CREATE INDEX "orders_merchant_refunded_idx" ON "orders" USING btree ("merchant_id","created_at","id") WHERE "orders"."refunded_minor" > 0;--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"refund_no" text NOT NULL,
	"merchant_id" bigint NOT NULL,
	"order_id" bigint NOT NULL,
	"merchant_refund_no" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"reason" text,
	"notify_url" text,
	"state" text DEFAULT 'processing' NOT NULL,
	"upstream_refund_id" text,
	"failure_reason" text,
	"upstream_accepted" boolean DEFAULT false NOT NULL,
	"request_count" integer DEFAULT 0 NOT NULL,
	"next_check_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "refunds_refund_no_key" UNIQUE("refund_no"),
	CONSTRAINT "refunds_merchant_refund_no_key" UNIQUE("merchant_id","merchant_refund_no"),
	CONSTRAINT "refunds_state_check" CHECK ("refunds"."state" IN ('processing', 'succeeded', 'failed', 'closed')),
	CONSTRAINT "refunds_amount_check" CHECK ("refunds"."amount_minor" > 0)
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_order_idx" ON "refunds" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "refunds_processing_due_idx" ON "refunds" USING btree ("next_check_at") WHERE "refunds"."state" = 'processing';--> statement-breakpoint
-- The simulators' refunds (sandbox/alipay, sandbox/wechat): empty where the sandbox is off.
ALTER TABLE "sandbox_alipay_trades" ADD COLUMN "refund_plan" text;--> statement-breakpoint
ALTER TABLE "sandbox_wechat_orders" ADD COLUMN "refund_plan" text;--> statement-breakpoint
CREATE TABLE "sandbox_alipay_refunds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"trade_no" text NOT NULL,
	"out_request_no" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"reason" text,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "sandbox_alipay_refunds_request_key" UNIQUE("trade_no","out_request_no")
);
--> statement-breakpoint
CREATE TABLE "sandbox_wechat_refunds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"refund_id" text NOT NULL,
	"mch_id" text NOT NULL,
	"out_trade_no" text NOT NULL,
	"transaction_id" text NOT NULL,
	"out_refund_no" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"total_minor" bigint NOT NULL,
	"reason" text,
	"notify_url" text,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"success_time" timestamp with time zone,
	CONSTRAINT "sandbox_wechat_refunds_refund_id_key" UNIQUE("refund_id"),
	CONSTRAINT "sandbox_wechat_refunds_out_refund_no_key" UNIQUE("mch_id","out_refund_no")
);
