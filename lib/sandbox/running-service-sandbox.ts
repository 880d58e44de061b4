import type { Database } from '../db/client';
import type { ReconciledChannels } from '../reconciliation/bill-source';
import { envSetting } from '../config/env-setting';
import { StartupRefusal } from '../config/startup-refusal';
import { adoptServiceBaseUrl } from '../settings/service-address';
import { sandboxEnabled } from './sandbox-enabled';

/**
 * A command that reads the upstreams itself (reconcile) from outside the service: with the sandbox on, they default
 * to the simulators the running service mounts, so the command takes the address that service recorded in the
 * database (its own PUBLIC_BASE_URL wins), never a guess of its own port. With neither, and an upstream of the
 * channels reconciled (`only` those, else all) left to its sandbox default (its source's sandboxDefault), it
 * refuses, naming the setting.
 */
export async function adoptRunningServiceSandbox(db: Database, channels: ReconciledChannels, only?: readonly string[]): Promise<void> {
  const env = process.env;
  if (!sandboxEnabled(env)) return;
  await adoptServiceBaseUrl(db);
  if (env.PUBLIC_BASE_URL) return;
  const defaulted = channels
    .filter((channel) => !only || only.includes(channel.name))
    .flatMap((channel) => channel.reconciliation?.sandboxDefault ?? [])
    .filter(({ setting, aliases = [] }) => [setting, ...aliases].every((name) => envSetting(env, name) === undefined))
    .map(({ setting }) => setting);
  if (defaulted.length === 0) return;
  throw new StartupRefusal(
    'PUBLIC_BASE_URL',
    `no service has started on this database to say where its sandbox answers (${defaulted.join(', ')} default to it): start the service (npm run dev) first, or set PUBLIC_BASE_URL to its address`,
  );
}
