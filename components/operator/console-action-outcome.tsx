'use client';

import { createContext, useContext, useState, type ReactNode } from 'react';
import { FormStatus } from './field';

const AnnounceOutcome = createContext<((text: string | undefined) => void) | undefined>(undefined);

/**
 * The last console action's outcome, said above a list whose rows the action removes: an unlocked account leaves the
 * locked sign-ins when the page refreshes, and a confirmation said inside its row would vanish with it.
 */
export function ConsoleActionOutcome({ children }: { children: ReactNode }) {
  const [outcome, setOutcome] = useState<string>();
  return (
    <AnnounceOutcome.Provider value={setOutcome}>
      <div className="mb-3">
        <FormStatus success={outcome} />
      </div>
      {children}
    </AnnounceOutcome.Provider>
  );
}

/** Says an action's outcome where it outlives the form (ConsoleActionOutcome); outside one, the form says it itself. */
export function useConsoleActionOutcome(sayInForm: (text: string | undefined) => void): (text: string | undefined) => void {
  return useContext(AnnounceOutcome) ?? sayInForm;
}
