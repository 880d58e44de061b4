/** The one mark per state every channel's checkout shows beside its heading (decorative: the heading says it). */
export function StateMark({ state }: { state: 'pending' | 'paid' | 'expired' }) {
  if (state === 'paid') {
    return (
      <svg className="state-mark" viewBox="0 0 36 36" aria-hidden="true" data-testid="mark-paid">
        <circle cx="18" cy="18" r="18" fill="#059669" />
        <path d="M10.5 18.5l5 5 10-11" fill="none" stroke="#fff" strokeWidth="3.2" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    );
  }
  if (state === 'expired') {
    return (
      <svg className="state-mark" viewBox="0 0 36 36" aria-hidden="true" data-testid="mark-expired">
        <circle cx="18" cy="18" r="18" fill="#6b7280" />
        <path d="M12.5 12.5l11 11M23.5 12.5l-11 11" fill="none" stroke="#fff" strokeWidth="3.2" strokeLinecap="round" />
      </svg>
    );
  }
  return (
    <svg className="state-mark" viewBox="0 0 36 36" aria-hidden="true" data-testid="mark-pending">
      <circle cx="18" cy="18" r="18" fill="#0f766e" />
      <circle cx="18" cy="18" r="9.5" fill="none" stroke="#fff" strokeWidth="2.6" />
      <path d="M18 12.5V18l3.5 2.5" fill="none" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
