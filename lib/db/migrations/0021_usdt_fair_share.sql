CREATE TABLE "usdt_merchant_limits" (
	"merchant_id" bigint PRIMARY KEY NOT NULL,
	"max_held_slots" integer,
	"max_amount_slots" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "usdt_merchant_limits" ADD CONSTRAINT "usdt_merchant_limits_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_usdt_merchant_slots_idx" ON "orders" USING btree ("merchant_id","chain_type","pay_amount_minor") WHERE "orders"."holds_slot";