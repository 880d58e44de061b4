CREATE TABLE "job_runs" (
	"name" text PRIMARY KEY NOT NULL,
	"last_started_at" timestamp with time zone NOT NULL,
	"last_finished_at" timestamp with time zone NOT NULL,
	"last_duration_ms" integer NOT NULL,
	"last_outcome" text NOT NULL,
	"last_success_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"run_count" integer DEFAULT 0 NOT NULL,
	"failure_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "attention_dismissals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"item_id" bigint NOT NULL,
	"note" text NOT NULL,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attention_dismissals_item_key" UNIQUE("kind","item_id"),
	CONSTRAINT "attention_dismissals_kind_check" CHECK ("attention_dismissals"."kind" in ('transfer', 'callback', 'notification'))
);
