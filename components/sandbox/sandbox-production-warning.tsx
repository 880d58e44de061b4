import { SANDBOX_IN_PRODUCTION_WARNING } from '@/lib/sandbox/sandbox-exposure';

/** The red bar every page shows while the sandbox is mounted in production. */
export function SandboxProductionWarning() {
  return (
    <div role="alert" data-testid="sandbox-production-banner" style={{ background: '#b91c1c', color: '#fff', fontWeight: 700, padding: '0.5rem 1rem', textAlign: 'center' }}>
      {SANDBOX_IN_PRODUCTION_WARNING}
    </div>
  );
}
