-- Pending ALIPAY orders made before creation stored the first check time get it now (the poller reads only stored times).
UPDATE "orders" SET "upstream_check_after" = LEAST("created_at" + interval '1 minute', "expires_at") WHERE "channel" = 'ALIPAY' AND "status" = 'pending' AND "upstream_check_after" IS NULL;--> statement-breakpoint
CREATE INDEX "orders_alipay_pending_check_idx" ON "orders" USING btree ("upstream_check_after") WHERE "orders"."channel" = 'ALIPAY' AND "orders"."status" = 'pending';
