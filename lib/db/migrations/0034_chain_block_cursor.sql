-- The TRON watcher reads solidified blocks by number (/walletsolidity/getblockbylimitnext): its cursor keeps the last
-- block read, beside that block's time. The sandbox node finds a range's blocks by number.
ALTER TABLE chain_cursors ADD COLUMN block_number bigint;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS sandbox_tron_transfers_block_idx ON sandbox_tron_transfers (block_number);
