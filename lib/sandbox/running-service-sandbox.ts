import type { Database } from '../db/client';
import { envSetting } from '../config/env-setting';
import { StartupRefusal } from '../config/startup-refusal';
import { adoptServiceBaseUrl } from '../settings/service-address';
import { sandboxEnabled } from './sandbox-enabled';

/** The reconciled upstreams whose default, with the sandbox on, is the running service's built-in simulator, by channel. */
const SANDBOX_DEFAULTED_SETTINGS: Record<string, string> = { ALIPAY: 'ALIPAY_GATEWAY_URL', WECHAT: 'WECHAT_API_BASE_URL', USDT: 'TRONGRID_BASE_URLS' };

/**
 * A command that reads the upstreams itself (reconcile) from outside the service: with the sandbox on, they default
 * to the simulators the running service mounts, so the command takes the address that service recorded in the
 * database (its own PUBLIC_BASE_URL wins), never a guess of its own port. With neither, and an upstream of the
 * `channels` reconciled (all without) left to its sandbox default, it refuses, naming the setting.
 */
export async function adoptRunningServiceSandbox(db: Database, channels?: readonly string[]): Promise<void> {
  const env = process.env;
  if (!sandboxEnabled(env)) return;
  await adoptServiceBaseUrl(db);
  if (env.PUBLIC_BASE_URL) return;
  const defaulted = Object.entries(SANDBOX_DEFAULTED_SETTINGS)
    .filter(([channel]) => !channels || channels.includes(channel))
    .map(([, name]) => name)
    .filter((name) => envSetting(env, name) === undefined && !(name === 'TRONGRID_BASE_URLS' && envSetting(env, 'TRONGRID_BASE_URL') !== undefined));
  if (defaulted.length === 0) return;
  throw new StartupRefusal(
    'PUBLIC_BASE_URL',
    `no service has started on this database to say where its sandbox answers (${defaulted.join(', ')} default to it): start the service (npm run dev) first, or set PUBLIC_BASE_URL to its address`,
  );
}
