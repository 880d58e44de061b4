/** What the bar says, in the reader's language (messages: sandbox.productionBanner). */
export interface SandboxWarningWords {
  label: string;
  text: string;
}

/**
 * The red bar every page shows while the sandbox is mounted in production. A landmark of its own, not an alert: it
 * is there from the first paint and stays, and a page's own alerts stay the page's.
 */
export function SandboxProductionWarning({ words }: { words: SandboxWarningWords }) {
  return (
    <aside aria-label={words.label} data-testid="sandbox-production-banner" style={{ background: '#b91c1c', color: '#fff', fontWeight: 700, padding: '0.5rem 1rem', textAlign: 'center' }}>
      {words.text}
    </aside>
  );
}
