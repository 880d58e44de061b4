import { asc, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { receivingAddresses } from '../../../db/schema';
import { formatMinorUnits } from '../../../money/decimal-amount';

export interface AddressHoldings {
  id: number;
  chain: string;
  address: string;
  enabled: boolean;
  createdAt: Date;
  /** Orders still payable on it (pending, inside their window). */
  pendingOrders: number;
  /** Expired or closed orders whose slot is in its cool-down: held, but no longer pending. */
  coolingDown: number;
  /**
   * The amounts (USDT, decimal strings, ascending) that orders hold on this address: pending ones, and expired ones
   * still in their cool-down (USDT_SLOT_COOLDOWN_MINUTES). No new order gets them here.
   */
  heldAmounts: string[];
}

/** The receiving-address pool with, per address, how many slots USDT orders hold on it and which amounts (slot index). */
export async function listAddressHoldings(db: Database): Promise<AddressHoldings[]> {
  const rows = await db
    .select({
      id: receivingAddresses.id,
      chain: receivingAddresses.chain,
      address: receivingAddresses.address,
      enabled: receivingAddresses.enabled,
      createdAt: receivingAddresses.createdAt,
      held: sql<string[] | null>`(SELECT array_agg(o.pay_amount_minor::text ORDER BY o.pay_amount_minor)
        FROM orders o WHERE o.holds_slot AND o.receiving_address_id = receiving_addresses.id)`,
      open: sql<number>`(SELECT count(*)::int FROM orders o
        WHERE o.holds_slot AND o.receiving_address_id = receiving_addresses.id AND o.status = 'pending' AND o.expires_at > now())`,
    })
    .from(receivingAddresses)
    .orderBy(asc(receivingAddresses.id));
  return rows.map(({ held, open, ...row }) => {
    const heldAmounts = (held ?? []).map((minor) => formatMinorUnits(BigInt(minor)));
    return { ...row, pendingOrders: open, coolingDown: heldAmounts.length - open, heldAmounts };
  });
}
