ALTER TABLE "upstream_orders" ADD COLUMN "cashier_issued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "upstream_orders" ADD COLUMN "payer_client_ip" text;--> statement-breakpoint
ALTER TABLE "sandbox_wechat_orders" ADD COLUMN "h5_urls" jsonb DEFAULT '{}'::jsonb NOT NULL;