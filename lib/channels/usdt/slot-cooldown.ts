/**
 * How long an expired USDT order keeps its (address, amount) slot after its window ends, so that a late transfer
 * from its payer can never pay a new order on the same slot (USDT_SLOT_COOLDOWN_MINUTES, 60 by default; 0 frees
 * the slot when the window ends).
 */
export function usdtSlotCooldownMinutes(): number {
  const configured = process.env.USDT_SLOT_COOLDOWN_MINUTES;
  if (configured === undefined || configured.trim() === '') return 60;
  const minutes = Number(configured);
  if (!Number.isInteger(minutes) || minutes < 0) {
    throw new Error(`USDT_SLOT_COOLDOWN_MINUTES must be a whole number of minutes (0 or more), not "${configured}"`);
  }
  return minutes;
}

/** Orders whose window ended at or before this instant no longer hold their slot. */
export function slotCooldownCutoff(now: Date): Date {
  return new Date(now.getTime() - usdtSlotCooldownMinutes() * 60_000);
}
