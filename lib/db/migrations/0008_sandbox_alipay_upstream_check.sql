CREATE TABLE "sandbox_alipay_keys" (
	"name" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"app_private_key" text NOT NULL,
	"app_public_key" text NOT NULL,
	"alipay_private_key" text NOT NULL,
	"alipay_public_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_alipay_trades" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"trade_no" text NOT NULL,
	"app_id" text NOT NULL,
	"out_trade_no" text NOT NULL,
	"method" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"subject" text NOT NULL,
	"body" text,
	"passback_params" text,
	"notify_url" text,
	"return_url" text,
	"time_expire" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'WAIT_BUYER_PAY' NOT NULL,
	"buyer_logon_id" text,
	"paid_at" timestamp with time zone,
	"notify_count" integer DEFAULT 0 NOT NULL,
	"last_notify_at" timestamp with time zone,
	"last_notify_result" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_alipay_trades_trade_no_unique" UNIQUE("trade_no"),
	CONSTRAINT "sandbox_alipay_trades_out_trade_no_key" UNIQUE("app_id","out_trade_no")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "upstream_check_after" timestamp with time zone;