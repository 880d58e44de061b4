-- An operator's reset of an account's lost authenticator, shown to the owner until a new one is set up.
ALTER TABLE "accounts" ADD COLUMN "second_factor_reset_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "second_factor_reset_reason" text;
