'use client';

import { useEffect, useState } from 'react';

function remaining(expiresAt: string): number {
  return Math.max(0, Math.floor((new Date(expiresAt).getTime() - Date.now()) / 1000));
}

export function TimeLeft({ expiresAt }: { expiresAt: string }) {
  const [seconds, setSeconds] = useState<number | null>(null);
  useEffect(() => {
    setSeconds(remaining(expiresAt));
    const timer = setInterval(() => setSeconds(remaining(expiresAt)), 1000);
    return () => clearInterval(timer);
  }, [expiresAt]);
  const text =
    seconds === null ? '' : `${Math.floor(seconds / 60)}:${(seconds % 60).toString().padStart(2, '0')}`;
  return (
    <>
      <p className="label">Time left</p>
      <p className="mono" data-testid="pay-time-left" aria-live="polite">
        {text}
      </p>
    </>
  );
}
