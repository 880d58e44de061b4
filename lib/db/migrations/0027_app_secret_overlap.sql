ALTER TABLE "merchants" ADD COLUMN "previous_app_secret_encrypted" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "previous_app_secret_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_previous_app_secret_pair" CHECK (("previous_app_secret_encrypted" IS NULL) = ("previous_app_secret_until" IS NULL));
