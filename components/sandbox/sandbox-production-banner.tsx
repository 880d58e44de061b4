import { getTranslations } from 'next-intl/server';
import { connection } from 'next/server';
import { sandboxMountedInProduction } from '@/lib/sandbox/sandbox-exposure';
import { SandboxProductionWarning } from './sandbox-production-warning';

/** On every page while the sandbox is mounted in production; read per request (the setting is not a build-time one). */
export async function SandboxProductionBanner() {
  await connection();
  if (!sandboxMountedInProduction()) return null;
  const t = await getTranslations('sandbox.productionBanner');
  return <SandboxProductionWarning words={{ label: t('label'), text: t('text') }} />;
}
