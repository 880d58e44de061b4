CREATE TABLE "upstream_credentials" (
	"id" serial PRIMARY KEY NOT NULL,
	"merchant_id" bigint NOT NULL,
	"channel" text NOT NULL,
	"upstream_app_id" text NOT NULL,
	"mch_id" text,
	"merchant_cert_serial" text,
	"private_key_encrypted" text NOT NULL,
	"api_v3_key_encrypted" text,
	"upstream_public_key" text,
	"upstream_public_key_id" text,
	"platform_certificate" text,
	"review_status" text DEFAULT 'pending' NOT NULL,
	"rejection_reason" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upstream_credentials_channel_check" CHECK ("upstream_credentials"."channel" in ('ALIPAY', 'WECHAT')),
	CONSTRAINT "upstream_credentials_review_status_check" CHECK ("upstream_credentials"."review_status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "upstream_credentials" ADD CONSTRAINT "upstream_credentials_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "upstream_credentials_merchant_channel_idx" ON "upstream_credentials" USING btree ("merchant_id","channel","id");