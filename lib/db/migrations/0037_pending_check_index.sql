-- The index of pending orders whose next check is due is one channel's range of (channel, upstream_check_after), not
-- an index named for a channel. The new one is built before the old one goes, so the poller always has one.
CREATE INDEX IF NOT EXISTS "orders_pending_check_idx" ON "orders" USING btree ("channel","upstream_check_after") WHERE "orders"."status" = 'pending' AND "orders"."upstream_check_after" IS NOT NULL;--> statement-breakpoint
DROP INDEX IF EXISTS "orders_alipay_pending_check_idx";
