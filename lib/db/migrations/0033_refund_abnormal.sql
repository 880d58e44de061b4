-- WeChat Pay's ABNORMAL refund gets its own state: not final (its amount stays reserved), asked about again until a
-- SUCCESS or CLOSED settles it, so the poller's index covers it beside processing.
ALTER TABLE "refunds" DROP CONSTRAINT "refunds_state_check";--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_state_check" CHECK ("refunds"."state" IN ('processing', 'succeeded', 'failed', 'closed', 'abnormal'));--> statement-breakpoint
DROP INDEX "refunds_processing_due_idx";--> statement-breakpoint
CREATE INDEX "refunds_open_due_idx" ON "refunds" USING btree ("next_check_at") WHERE "refunds"."state" IN ('processing', 'abnormal');
