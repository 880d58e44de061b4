'use client';

import { useEffect, useState } from 'react';

function formatSeconds(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${(seconds % 60).toString().padStart(2, '0')}`;
}

/** Counts down from the seconds the server computed, so server and browser render the same first frame. */
export function TimeLeft({ initialSeconds, label = 'Time left' }: { initialSeconds: number; label?: string }) {
  const [seconds, setSeconds] = useState(initialSeconds);
  useEffect(() => {
    const deadline = Date.now() + initialSeconds * 1000;
    const timer = setInterval(() => setSeconds(Math.max(0, Math.round((deadline - Date.now()) / 1000))), 1000);
    return () => clearInterval(timer);
  }, [initialSeconds]);
  return (
    <>
      <p className="label">{label}</p>
      {/* Not a live region: announcing every second would drown a screen reader. */}
      <p className="mono countdown" data-testid="pay-time-left" aria-live="off">
        {formatSeconds(seconds)}
      </p>
    </>
  );
}
