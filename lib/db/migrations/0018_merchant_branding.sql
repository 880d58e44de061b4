CREATE TABLE "merchant_branding" (
	"merchant_id" bigint PRIMARY KEY NOT NULL,
	"display_name" text,
	"logo_type" text,
	"logo_bytes" "bytea",
	"logo_version" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "merchant_branding_display_name_length" CHECK (char_length("merchant_branding"."display_name") BETWEEN 1 AND 60),
	CONSTRAINT "merchant_branding_logo_type" CHECK ("merchant_branding"."logo_type" IN ('image/png', 'image/jpeg', 'image/webp')),
	CONSTRAINT "merchant_branding_logo_pair" CHECK (("merchant_branding"."logo_type" IS NULL) = ("merchant_branding"."logo_bytes" IS NULL)),
	CONSTRAINT "merchant_branding_logo_size" CHECK (octet_length("merchant_branding"."logo_bytes") <= 102400)
);
--> statement-breakpoint
ALTER TABLE "merchant_branding" ADD CONSTRAINT "merchant_branding_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;