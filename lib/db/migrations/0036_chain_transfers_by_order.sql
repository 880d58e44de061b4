-- The checkout and an order's page list the transfers linked to the order that did not pay it (a short or late
-- payment): without this each read filtered every wrong-amount and late transfer of the whole platform.
CREATE INDEX IF NOT EXISTS "chain_transfers_order_idx" ON "chain_transfers" USING btree ("order_id");
