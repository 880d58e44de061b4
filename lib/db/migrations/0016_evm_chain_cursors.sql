CREATE TABLE "evm_chain_cursors" (
	"chain" text PRIMARY KEY NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"reorg_detected_at" timestamp with time zone,
	"reorg_node_hash" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
