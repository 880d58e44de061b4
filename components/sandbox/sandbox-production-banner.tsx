import { connection } from 'next/server';
import { SANDBOX_IN_PRODUCTION_WARNING, sandboxMountedInProduction } from '@/lib/sandbox/sandbox-exposure';

/** On every page while the sandbox is mounted in production; read per request (the setting is not a build-time one). */
export async function SandboxProductionBanner() {
  await connection();
  if (!sandboxMountedInProduction()) return null;
  return (
    <div role="alert" data-testid="sandbox-production-banner" style={{ background: '#b91c1c', color: '#fff', fontWeight: 700, padding: '0.5rem 1rem', textAlign: 'center' }}>
      {SANDBOX_IN_PRODUCTION_WARNING}
    </div>
  );
}
