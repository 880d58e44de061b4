import { DomainError } from '../../errors/domain-error';
import { formatMinorUnits } from '../../money/decimal-amount';
import { SLOT_STEP_MINOR } from './amount-slots';

/**
 * Fair use of the shared receiving-address pool. Every merchant's USDT orders take (address, amount) slots from the
 * same addresses, and a submit of an amount may take it or the next cent on any address: 2 × (enabled addresses)
 * slots. Without a limit one merchant (or whoever holds its AppSecret) could hold all of them for an amount, for the
 * payment window and the cool-down after it, and every other merchant's orders of that amount would be 1010. So, per
 * network, a merchant's orders may hold at most:
 *   - maxAmountSlots of the slots of any amount and its next cent: by default the number of enabled addresses, half
 *     of them, so another merchant always finds one free;
 *   - maxHeldSlots slots in all: DEFAULT_MAX_HELD_SLOTS by default, a bound on what one merchant can tie up overall.
 * The operator sets either per merchant (`npm run admin -- pool set`); 0 is no limit. A refusal is 1010 naming the
 * limit. docs/channels/usdt.md says how to size the pool for a number of merchants.
 *
 * Concurrent submits of one merchant could each see room for one more: the limit is enforced after the insert, on
 * what is committed (fairShareBreach), and an order over it is taken back. Of two such orders the later check sees
 * both, so the limit is never exceeded for longer than that check.
 */

/**
 * 500 slots: a merchant creating an order every 10 seconds, none of them paid, holds about 540 (each holds its slot
 * for the 30-minute window and the 60-minute cool-down); paid orders free theirs at once. Larger merchants get theirs
 * from the operator.
 */
export const DEFAULT_MAX_HELD_SLOTS = 500;

/** What the rule weighs: the merchant's limits on one network, its slots there, and its slots near one amount. */
export interface MerchantHoldings {
  chainName: string;
  /** 0: no limit. */
  maxHeldSlots: number;
  /** 0: no limit. */
  maxAmountSlots: number;
  /** Slots held on the network, counted up to maxHeldSlots + 1. */
  held: number;
  /** Slots held by pay amount, from the amount weighed - 0.01 to + 0.02. */
  near: ReadonlyMap<bigint, number>;
}

const heldAt = (holdings: MerchantHoldings, amount: bigint) => holdings.near.get(amount) ?? 0;

/** The lower amount of the first amount-and-next-cent pair with `amount` in it that `extra` more slots would take over the limit. */
function pairOverLimit(holdings: MerchantHoldings, amount: bigint, extra: number): bigint | undefined {
  if (holdings.maxAmountSlots === 0) return undefined;
  return [amount, amount - SLOT_STEP_MINOR].find((low) => heldAt(holdings, low) + heldAt(holdings, low + SLOT_STEP_MINOR) + extra > holdings.maxAmountSlots);
}

const overHeldLimit = (holdings: MerchantHoldings, extra: number) => holdings.maxHeldSlots > 0 && holdings.held + extra > holdings.maxHeldSlots;

function heldSlotsRefusal(holdings: MerchantHoldings): DomainError {
  return new DomainError('pool_share_exceeded', {
    message:
      `this merchant's USDT orders already hold ${holdings.maxHeldSlots} receiving slots on ${holdings.chainName} (pending orders and expired ones ` +
      'in their cool-down), the most one merchant may hold; try again later',
  });
}

function amountSlotsRefusal(holdings: MerchantHoldings, requested: bigint, low: bigint): DomainError {
  return new DomainError('pool_share_exceeded', {
    message:
      `pay_usdt ${formatMinorUnits(requested)}: this merchant's orders already hold ${holdings.maxAmountSlots} of the receiving slots for ` +
      `${formatMinorUnits(low)} and ${formatMinorUnits(low + SLOT_STEP_MINOR)} on ${holdings.chainName}, the most one merchant may hold of one amount; try again later`,
  });
}

/**
 * Before a submit looks for a slot: the pay amounts (the requested one, then the next cent) the merchant may still
 * take one more slot of; a refusal naming the limit when there is none.
 */
export function amountsWithinShare(holdings: MerchantHoldings, requested: bigint): bigint[] {
  if (overHeldLimit(holdings, 1)) throw heldSlotsRefusal(holdings);
  const candidates = [requested, requested + SLOT_STEP_MINOR];
  const allowed = candidates.filter((amount) => pairOverLimit(holdings, amount, 1) === undefined);
  if (allowed.length === 0) throw amountSlotsRefusal(holdings, requested, pairOverLimit(holdings, requested, 1)!);
  return allowed;
}

/** After an order took a slot at `payAmount` (counted in `holdings`): the refusal when that took the merchant over a limit. */
export function fairShareBreach(holdings: MerchantHoldings, requested: bigint, payAmount: bigint): DomainError | undefined {
  if (overHeldLimit(holdings, 0)) return heldSlotsRefusal(holdings);
  const low = pairOverLimit(holdings, payAmount, 0);
  return low === undefined ? undefined : amountSlotsRefusal(holdings, requested, low);
}
