-- A submit walks the receiving pool in id order and stops at the first free slot only when PostgreSQL has statistics
-- on receiving_addresses; without them it probes every enabled address of the chain on every submit. Pools added
-- before the pool's own additions kept them current (lib/channels/usdt/receiving-addresses.ts) get them here.
ANALYZE receiving_addresses;
