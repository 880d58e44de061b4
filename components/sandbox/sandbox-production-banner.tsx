import { connection } from 'next/server';
import { sandboxMountedInProduction } from '@/lib/sandbox/sandbox-exposure';
import { SandboxProductionWarning } from './sandbox-production-warning';

/** On every page while the sandbox is mounted in production; read per request (the setting is not a build-time one). */
export async function SandboxProductionBanner() {
  await connection();
  return sandboxMountedInProduction() ? <SandboxProductionWarning /> : null;
}
