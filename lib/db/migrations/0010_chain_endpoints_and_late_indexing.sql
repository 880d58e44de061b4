CREATE TABLE "chain_endpoints" (
	"base_url" text PRIMARY KEY NOT NULL,
	"blocked_until" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"last_ok_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox_tron_transfers" ADD COLUMN "indexed_at_ms" bigint;