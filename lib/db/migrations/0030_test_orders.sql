ALTER TABLE "orders" ADD COLUMN "is_test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
DROP INDEX IF EXISTS "orders_merchant_created_idx";--> statement-breakpoint
CREATE INDEX "orders_merchant_created_idx" ON "orders" USING btree ("merchant_id","created_at","id","status","is_test");--> statement-breakpoint
CREATE INDEX "orders_merchant_test_created_idx" ON "orders" USING btree ("merchant_id","created_at","id") WHERE "orders"."is_test";
