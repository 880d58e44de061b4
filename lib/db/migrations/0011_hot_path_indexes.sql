DROP INDEX "orders_pending_expiry_idx";--> statement-breakpoint
CREATE INDEX "orders_pending_channel_expiry_idx" ON "orders" USING btree ("channel","expires_at") WHERE "orders"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "orders_merchant_created_idx" ON "orders" USING btree ("merchant_id","created_at","id","status");--> statement-breakpoint
CREATE INDEX "orders_merchant_status_created_idx" ON "orders" USING btree ("merchant_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "orders_merchant_paid_idx" ON "orders" USING btree ("merchant_id","paid_at") WHERE "orders"."status" = 'paid';--> statement-breakpoint
CREATE INDEX "notifications_failed_idx" ON "notifications" USING btree ("id") WHERE "notifications"."status" = 'failed';