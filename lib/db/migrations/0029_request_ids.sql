ALTER TABLE "orders" ADD COLUMN "request_id" text;
