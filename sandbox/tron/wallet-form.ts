import { SandboxTransferRefused, usdtToRaw } from './ledger';

/** A USDT order's window: the same amount to the same address within it is the same payment. */
export const SAME_PAYMENT_WINDOW_MS = 30 * 60 * 1000;

/** Raw 6-decimal units as a USDT quantity, trailing zeros trimmed to at least two decimals. */
export function sandboxUsdt(raw: string): string {
  const value = BigInt(raw);
  return `${value / 1_000_000n}.${(value % 1_000_000n).toString().padStart(6, '0')}`.replace(/0{1,4}$/, '');
}

/** Whether this exact amount went to this address within the window: the wallet then leaves its form empty. */
export function sentMomentsAgo(
  transfers: readonly { to: string; valueRaw: string; blockTimestampMs: number }[],
  to: string,
  amount: string,
  nowMs = Date.now(),
): boolean {
  let raw: string;
  try {
    raw = usdtToRaw(amount.trim()).toString();
  } catch (error) {
    if (error instanceof SandboxTransferRefused) return false;
    throw error;
  }
  return transfers.some((transfer) => transfer.to === to.trim() && transfer.valueRaw === raw && nowMs - transfer.blockTimestampMs < SAME_PAYMENT_WINDOW_MS);
}
