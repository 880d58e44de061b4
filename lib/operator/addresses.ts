import { asc, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { receivingAddresses } from '../db/schema';
import { formatMinorUnits } from '../money/decimal-amount';

export interface AddressHoldings {
  id: number;
  chain: string;
  address: string;
  enabled: boolean;
  createdAt: Date;
  pendingOrders: number;
  /** The amounts (USDT, decimal strings, ascending) that pending orders hold on this address: no new order gets them here. */
  heldAmounts: string[];
}

/** The receiving-address pool with, per address, how many pending USDT orders it has and which amounts they hold. */
export async function listAddressHoldings(db: Database): Promise<AddressHoldings[]> {
  const rows = await db
    .select({
      id: receivingAddresses.id,
      chain: receivingAddresses.chain,
      address: receivingAddresses.address,
      enabled: receivingAddresses.enabled,
      createdAt: receivingAddresses.createdAt,
      held: sql<string[] | null>`(SELECT array_agg(o.pay_amount_minor::text ORDER BY o.pay_amount_minor)
        FROM orders o WHERE o.receiving_address_id = receiving_addresses.id AND o.status = 'pending' AND o.channel = 'USDT')`,
    })
    .from(receivingAddresses)
    .orderBy(asc(receivingAddresses.id));
  return rows.map(({ held, ...row }) => {
    const heldAmounts = (held ?? []).map((minor) => formatMinorUnits(BigInt(minor)));
    return { ...row, pendingOrders: heldAmounts.length, heldAmounts };
  });
}
