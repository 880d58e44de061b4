/** The longest reason an operator may give for rejecting (or acting on) a credential; the portal shows it to the merchant. */
export const REJECTION_REASON_MAX_LENGTH = 500;
