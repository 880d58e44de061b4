CREATE TABLE "upstream_orders" (
	"order_id" bigint PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"upstream_order_no" text NOT NULL,
	"cashier_url" text NOT NULL,
	"qr_content" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upstream_orders_channel_no_key" UNIQUE("channel","upstream_order_no")
);
--> statement-breakpoint
CREATE TABLE "upstream_callbacks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"kind" text DEFAULT 'callback' NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"raw_body" text,
	"out_trade_no" text,
	"trade_no" text,
	"order_id" bigint,
	"verdict" text NOT NULL,
	"detail" text,
	"answer" text
);
--> statement-breakpoint
CREATE TABLE "sandbox_yht_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"trade_no" text NOT NULL,
	"mch_no" text NOT NULL,
	"out_trade_no" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"pay_method" text NOT NULL,
	"subject" text NOT NULL,
	"notify_url" text NOT NULL,
	"return_url" text,
	"expire_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'WAITING' NOT NULL,
	"paid_at" timestamp with time zone,
	"notify_count" integer DEFAULT 0 NOT NULL,
	"last_notify_at" timestamp with time zone,
	"last_notify_result" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_yht_orders_trade_no_unique" UNIQUE("trade_no"),
	CONSTRAINT "sandbox_yht_orders_out_trade_no_key" UNIQUE("mch_no","out_trade_no")
);
--> statement-breakpoint
ALTER TABLE "upstream_orders" ADD CONSTRAINT "upstream_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upstream_callbacks" ADD CONSTRAINT "upstream_callbacks_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "upstream_callbacks_order_idx" ON "upstream_callbacks" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "upstream_callbacks_rejected_idx" ON "upstream_callbacks" USING btree ("received_at") WHERE "upstream_callbacks"."verdict" NOT IN ('paid', 'duplicate', 'ignored');