'use client';

import { createContext, useContext, useState, type ReactNode } from 'react';
import { FormMessage } from './field';

const AnnounceRefundOutcome = createContext<((text: string | undefined) => void) | undefined>(undefined);

/**
 * The last refund action's outcome, said at the top of the Refunds section. The form that took the action may be gone
 * once the page has refreshed (a full refund leaves nothing to refund, a remedied refund offers no remedy, a refunded
 * late payment no button): said inside it, the confirmation would vanish with it.
 */
export function RefundOutcome({ children }: { children: ReactNode }) {
  const [outcome, setOutcome] = useState<string>();
  return (
    <AnnounceRefundOutcome.Provider value={setOutcome}>
      <FormMessage success={outcome} />
      {children}
    </AnnounceRefundOutcome.Provider>
  );
}

/** Says a refund action's outcome where it outlives the form (RefundOutcome); outside one, the form says it itself. */
export function useRefundOutcome(sayInForm: (text: string | undefined) => void): (text: string | undefined) => void {
  return useContext(AnnounceRefundOutcome) ?? sayInForm;
}
