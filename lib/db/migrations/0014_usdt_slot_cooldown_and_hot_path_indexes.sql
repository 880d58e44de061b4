DROP INDEX "orders_pending_usdt_slot_key";--> statement-breakpoint
DROP INDEX "orders_pending_expiry_idx";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "holds_slot" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Pending USDT orders held their slot under the old index; they keep it (their cool-down starts when they expire).
UPDATE "orders" SET "holds_slot" = true WHERE "channel" = 'USDT' AND "status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "orders_usdt_slot_holder_key" ON "orders" USING btree ("receiving_address_id","pay_amount_minor") WHERE "orders"."holds_slot";--> statement-breakpoint
CREATE INDEX "orders_usdt_slot_release_idx" ON "orders" USING btree ("expires_at") WHERE "orders"."holds_slot";--> statement-breakpoint
CREATE INDEX "orders_pending_channel_expiry_idx" ON "orders" USING btree ("channel","expires_at") WHERE "orders"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "orders_merchant_created_idx" ON "orders" USING btree ("merchant_id","created_at","id","status");--> statement-breakpoint
CREATE INDEX "orders_merchant_status_created_idx" ON "orders" USING btree ("merchant_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "orders_merchant_paid_idx" ON "orders" USING btree ("merchant_id","paid_at") WHERE "orders"."status" = 'paid';--> statement-breakpoint
CREATE INDEX "notifications_failed_idx" ON "notifications" USING btree ("id") WHERE "notifications"."status" = 'failed';