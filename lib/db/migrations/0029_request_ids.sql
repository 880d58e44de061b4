ALTER TABLE "orders" ADD COLUMN "request_id" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "request_id" text;
