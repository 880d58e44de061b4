CREATE TABLE "wechat_platform_certificates" (
	"credential_id" integer NOT NULL,
	"serial" text NOT NULL,
	"certificate_pem" text NOT NULL,
	"effective_time" timestamp with time zone NOT NULL,
	"expire_time" timestamp with time zone NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "wechat_platform_certificates_credential_id_serial_pk" PRIMARY KEY("credential_id","serial")
);
--> statement-breakpoint
ALTER TABLE "upstream_orders" ADD COLUMN "cashier_issued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "upstream_orders" ADD COLUMN "payer_client_ip" text;--> statement-breakpoint
ALTER TABLE "sandbox_wechat_keys" ADD COLUMN "mode" text DEFAULT 'public_key' NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_wechat_keys" ADD COLUMN "platform_certificates" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_wechat_orders" ADD COLUMN "h5_urls" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "wechat_platform_certificates" ADD CONSTRAINT "wechat_platform_certificates_credential_id_upstream_credentials_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."upstream_credentials"("id") ON DELETE no action ON UPDATE no action;