CREATE TABLE "sandbox_wechat_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"mch_id" text NOT NULL,
	"app_id" text NOT NULL,
	"merchant_private_key" text NOT NULL,
	"merchant_public_key" text NOT NULL,
	"merchant_cert_serial" text NOT NULL,
	"platform_private_key" text NOT NULL,
	"platform_public_key" text NOT NULL,
	"platform_public_key_id" text NOT NULL,
	"api_v3_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_wechat_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"pay_id" text NOT NULL,
	"transaction_id" text NOT NULL,
	"prepay_id" text NOT NULL,
	"mch_id" text NOT NULL,
	"app_id" text NOT NULL,
	"out_trade_no" text NOT NULL,
	"trade_type" text NOT NULL,
	"description" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"notify_url" text NOT NULL,
	"attach" text,
	"payer_client_ip" text,
	"time_expire" timestamp with time zone NOT NULL,
	"trade_state" text DEFAULT 'NOTPAY' NOT NULL,
	"success_time" timestamp with time zone,
	"notify_count" integer DEFAULT 0 NOT NULL,
	"last_notify_at" timestamp with time zone,
	"last_notify_result" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_wechat_orders_pay_id_unique" UNIQUE("pay_id"),
	CONSTRAINT "sandbox_wechat_orders_transaction_id_unique" UNIQUE("transaction_id"),
	CONSTRAINT "sandbox_wechat_orders_out_trade_no_key" UNIQUE("mch_id","out_trade_no")
);
