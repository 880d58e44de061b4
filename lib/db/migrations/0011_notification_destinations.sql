CREATE TABLE "notification_destinations" (
	"destination" text PRIMARY KEY NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"failing_since" timestamp with time zone,
	"open_until" timestamp with time zone,
	"probe_until" timestamp with time zone,
	"last_error" text,
	"last_failure_at" timestamp with time zone,
	"last_answer_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "destination" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "give_up_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "notifications_pending_destination_idx" ON "notifications" USING btree ("destination","next_attempt_at") WHERE "notifications"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "notifications_leased_idx" ON "notifications" USING btree ("lease_owner","destination") WHERE "notifications"."lease_owner" IS NOT NULL;