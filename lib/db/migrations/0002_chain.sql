CREATE TABLE "chain_cursors" (
	"name" text PRIMARY KEY NOT NULL,
	"block_timestamp_ms" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_transfers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transaction_id" text NOT NULL,
	"event_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"receiving_address_id" bigint NOT NULL,
	"value_raw" numeric(78, 0) NOT NULL,
	"verdict" text NOT NULL,
	"order_id" bigint,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_transfers_event_key" UNIQUE("transaction_id","event_index")
);
--> statement-breakpoint
CREATE TABLE "sandbox_tron_transfers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transaction_id" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_timestamp_ms" bigint NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"value_raw" numeric(78, 0) NOT NULL,
	CONSTRAINT "sandbox_tron_transfers_transaction_id_unique" UNIQUE("transaction_id")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payer" text;--> statement-breakpoint
ALTER TABLE "chain_transfers" ADD CONSTRAINT "chain_transfers_receiving_address_id_receiving_addresses_id_fk" FOREIGN KEY ("receiving_address_id") REFERENCES "public"."receiving_addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_transfers" ADD CONSTRAINT "chain_transfers_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chain_transfers_verdict_idx" ON "chain_transfers" USING btree ("verdict");