'use client';

import { useEffect, useState } from 'react';

function formatSeconds(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${(seconds % 60).toString().padStart(2, '0')}`;
}

/** Counts down from the seconds the server computed, so server and browser render the same first frame. */
export function TimeLeft({ initialSeconds }: { initialSeconds: number }) {
  const [seconds, setSeconds] = useState(initialSeconds);
  useEffect(() => {
    const deadline = Date.now() + initialSeconds * 1000;
    const timer = setInterval(() => setSeconds(Math.max(0, Math.round((deadline - Date.now()) / 1000))), 1000);
    return () => clearInterval(timer);
  }, [initialSeconds]);
  return (
    <>
      <p className="label">Time left</p>
      <p className="mono" data-testid="pay-time-left" aria-live="polite">
        {formatSeconds(seconds)}
      </p>
    </>
  );
}
