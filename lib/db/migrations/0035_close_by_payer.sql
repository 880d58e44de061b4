-- Who closed an order, as every page says it: 'closed' is the merchant's close (open API or portal), 'cancelled' the
-- payer's at the checkout ('expired' unchanged). Payers' cancels stored before this are told apart by their audit entry.
ALTER TABLE "orders" DROP CONSTRAINT "orders_close_reason_check";--> statement-breakpoint
UPDATE "orders" o SET "close_reason" = 'cancelled'
  WHERE o."close_reason" = 'closed'
    AND EXISTS (SELECT 1 FROM "audit_log" a WHERE a."action" = 'order.close' AND a."actor" = 'payer' AND a."subject" = 'order:' || o."order_no");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_close_reason_check" CHECK ("orders"."close_reason" IN ('expired', 'closed', 'cancelled'));
