import { DomainError } from '../../errors/domain-error';
import { formatMinorUnits } from '../../money/decimal-amount';
import { SLOT_STEP_MINOR } from './amount-slots';
import { usdtSlotCooldownMinutes } from './slot-cooldown';

/**
 * Fair use of the shared receiving-address pool. Every merchant's USDT orders take (address, amount) slots from the
 * same addresses, and a submit of an amount may take it or the next cent on any address: 2 × (enabled addresses)
 * slots. A merchant no other merchant contends with keeps all of them: the +0.01 rule alone bounds it. While another
 * merchant can place orders (its order permission is on), one merchant (or whoever holds its AppSecret) could hold
 * every slot of an amount, for the payment window and the cool-down after it, and the others' orders of that amount
 * would be 1010. So then, per network, a merchant's orders may hold at most:
 *   - maxAmountSlots of the slots of any amount and its next cent: by default the number of enabled addresses, half
 *     of them, so another merchant always finds one free;
 *   - maxHeldSlots slots in all: DEFAULT_MAX_HELD_SLOTS by default, a bound on what one merchant can tie up overall.
 * The operator sets either per merchant (`npm run admin -- pool set`), and a limit so set applies whether or not
 * the merchant is alone; 0 is no limit. A refusal is 1010 naming the limit and what can be done about it.
 * docs/channels/usdt.md says why this is fair and how to size the pool for a number of merchants.
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

/**
 * SQL: the merchants that may place orders, two at most (ids, NULL when none). Uncorrelated, so a statement reads it
 * once whatever the number of its rows; its scan of `merchants` stops at the second merchant with order permission.
 */
const MERCHANTS_ABLE_TO_ORDER_SQL = '(SELECT array_agg(p.id) FROM (SELECT m.id FROM merchants m WHERE m.order_permission LIMIT 2) AS p)';

/**
 * SQL that is true when a merchant other than `merchantId` (an SQL expression of type bigint) may place orders: the
 * pool is then shared, and the fair-use defaults apply to `merchantId`.
 */
export function poolSharedSql(merchantId: string): string {
  return `coalesce(${MERCHANTS_ABLE_TO_ORDER_SQL} <> ARRAY[${merchantId}], false)`;
}

/** What the rule weighs: the merchant's limits on one network, its slots there, and its slots near one amount. */
export interface MerchantHoldings {
  chainName: string;
  /** The network's enabled receiving addresses: an amount and its next cent have twice as many slots. */
  addresses: number;
  /**
   * Whether the operator set each limit for this merchant; else it is the default while another merchant may place
   * orders, and none while it is alone.
   */
  heldLimitSet: boolean;
  amountLimitSet: boolean;
  /** 0: no limit. */
  maxHeldSlots: number;
  /** 0: no limit. */
  maxAmountSlots: number;
  /** Slots held on the network, counted up to maxHeldSlots + 1. */
  held: number;
  /** Slots held by pay amount, from the amount weighed - 0.01 to + 0.02. */
  near: ReadonlyMap<bigint, number>;
}

/** No limit weighs on the merchant: the check after the insert has nothing to do. */
export const withinAnyShare = (holdings: MerchantHoldings) => holdings.maxHeldSlots === 0 && holdings.maxAmountSlots === 0;

const heldAt = (holdings: MerchantHoldings, amount: bigint) => holdings.near.get(amount) ?? 0;

/** The lower amount of the first amount-and-next-cent pair with `amount` in it that `extra` more slots would take over the limit. */
function pairOverLimit(holdings: MerchantHoldings, amount: bigint, extra: number): bigint | undefined {
  if (holdings.maxAmountSlots === 0) return undefined;
  return [amount, amount - SLOT_STEP_MINOR].find((low) => heldAt(holdings, low) + heldAt(holdings, low + SLOT_STEP_MINOR) + extra > holdings.maxAmountSlots);
}

const overHeldLimit = (holdings: MerchantHoldings, extra: number) => holdings.maxHeldSlots > 0 && holdings.held + extra > holdings.maxHeldSlots;

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
const waitForSlots = () => `try again when one of its orders is paid, or has expired and its ${usdtSlotCooldownMinutes()}-minute cool-down has ended`;

function heldSlotsRefusal(holdings: MerchantHoldings): DomainError {
  const limit = holdings.heldLimitSet
    ? `the most the operator allows this merchant (held-slots ${holdings.maxHeldSlots})`
    : `the most one merchant may hold while other merchants order from the same receiving addresses (held-slots, default ${DEFAULT_MAX_HELD_SLOTS})`;
  return new DomainError('pool_share_exceeded', {
    message:
      `this merchant's USDT orders already hold ${plural(holdings.maxHeldSlots, 'receiving slot')} on ${holdings.chainName} (pending orders and expired ones ` +
      `in their cool-down), ${limit}; ${waitForSlots()}, or ask the operator to raise this merchant's held-slots limit`,
  });
}

function amountSlotsRefusal(holdings: MerchantHoldings, requested: bigint, low: bigint): DomainError {
  const [limit, remedy] = holdings.amountLimitSet
    ? [`the most the operator allows this merchant of one amount (amount-slots ${holdings.maxAmountSlots})`, "ask the operator to raise this merchant's amount-slots limit"]
    : ['the most one merchant may hold of one amount while other merchants order from the same receiving addresses (half of them)', "ask the operator to add receiving addresses or raise this merchant's amount-slots limit"];
  return new DomainError('pool_share_exceeded', {
    message:
      `pay_usdt ${formatMinorUnits(requested)}: this merchant's orders already hold ${holdings.maxAmountSlots} of the ${2 * holdings.addresses} receiving slots for ` +
      `${formatMinorUnits(low)} and ${formatMinorUnits(low + SLOT_STEP_MINOR)} on ${holdings.chainName}, ${limit}; ${waitForSlots()}, or ${remedy}`,
  });
}

/** Every slot of the amount and its next cent is held (the +0.01 rule's own limit), or the network has no address. */
function poolFullRefusal(holdings: MerchantHoldings, requested: bigint): DomainError {
  const amount = formatMinorUnits(requested);
  const next = formatMinorUnits(requested + SLOT_STEP_MINOR);
  if (holdings.addresses === 0) {
    return new DomainError('no_receiving_address', { message: `pay_usdt ${amount}: no receiving address is enabled on ${holdings.chainName}; ask the operator to add one` });
  }
  const where = holdings.addresses === 1 ? `the only receiving address on ${holdings.chainName} already holds` : `all ${holdings.addresses} receiving addresses on ${holdings.chainName} already hold`;
  return new DomainError('no_receiving_address', {
    message:
      `pay_usdt ${amount}: ${where} ${amount} and ${next} for other orders (pending, or expired and in their ${usdtSlotCooldownMinutes()}-minute cool-down); ` +
      'try again when one of them is paid or its cool-down ends, or ask the operator to add receiving addresses',
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

/**
 * No slot was free at the amounts the merchant may take: the share's refusal when it kept the merchant from the
 * next cent, else the pool's.
 */
export function noFreeSlotRefusal(holdings: MerchantHoldings, requested: bigint, allowed: readonly bigint[]): DomainError {
  const next = requested + SLOT_STEP_MINOR;
  if (!allowed.includes(next)) return amountSlotsRefusal(holdings, requested, pairOverLimit(holdings, next, 1)!);
  return poolFullRefusal(holdings, requested);
}

/** After an order took a slot at `payAmount` (counted in `holdings`): the refusal when that took the merchant over a limit. */
export function fairShareBreach(holdings: MerchantHoldings, requested: bigint, payAmount: bigint): DomainError | undefined {
  if (overHeldLimit(holdings, 0)) return heldSlotsRefusal(holdings);
  const low = pairOverLimit(holdings, payAmount, 0);
  return low === undefined ? undefined : amountSlotsRefusal(holdings, requested, low);
}
