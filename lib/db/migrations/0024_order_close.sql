-- Why a closed order closed: its window ended ('expired', every close before this migration) or someone closed it
-- ('closed': the merchant through the open API or the portal, the payer at the checkout). Close and expiry notices
-- are opt-in per merchant (off: a payment handler that reads every notice as "paid" must never receive one).
ALTER TABLE "orders" ADD COLUMN "close_reason" text;--> statement-breakpoint
UPDATE "orders" SET "close_reason" = 'expired' WHERE "status" = 'closed';--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_close_reason_check" CHECK ("orders"."close_reason" IN ('expired', 'closed'));--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "close_notices" boolean DEFAULT false NOT NULL;
