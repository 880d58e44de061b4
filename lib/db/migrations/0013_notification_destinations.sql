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
CREATE INDEX "notifications_leased_idx" ON "notifications" USING btree ("lease_owner","destination") WHERE "notifications"."lease_owner" IS NOT NULL;--> statement-breakpoint
-- Backfill: the host[:port] of each order's notifyUrl (default ports left out, as the WHATWG URL parser does).
UPDATE "notifications" n SET "destination" = CASE
    WHEN u.scheme = 'http' THEN regexp_replace(u.host, ':80$', '')
    WHEN u.scheme = 'https' THEN regexp_replace(u.host, ':443$', '')
  END
FROM (
  SELECT id, lower(substring(notify_url from '^([A-Za-z][A-Za-z0-9+.-]*)://')) AS scheme,
         lower(substring(notify_url from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?([^/?#]+)')) AS host
  FROM "orders" WHERE notify_url IS NOT NULL
) u
WHERE u.id = n.order_id;--> statement-breakpoint
-- Backfill: pending cycles end where the retry plan ends, 24 h 44 min 15 s after their first attempt.
UPDATE "notifications" n SET "give_up_at" = coalesce(
    (SELECT min(a.started_at) FROM "notification_attempts" a WHERE a.notification_id = n.id), n.next_attempt_at
  ) + interval '89055 seconds'
WHERE n.status = 'pending';
