ALTER TABLE "chain_transfers" DROP CONSTRAINT "chain_transfers_event_key";--> statement-breakpoint
ALTER TABLE "chain_transfers" ADD COLUMN "chain" text DEFAULT 'TRC20' NOT NULL;--> statement-breakpoint
ALTER TABLE "chain_transfers" ADD CONSTRAINT "chain_transfers_event_key" UNIQUE("chain","transaction_id","event_index");