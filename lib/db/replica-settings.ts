import { envSetting } from '../config/env-setting';
import { StartupRefusal } from '../config/startup-refusal';
import { parseDatabaseUrl } from './database-url';

/** The replica's setting: one host, read by the back office's lists, dashboards and reconciliation views. */
export const REPLICA_URL_SETTING = 'DATABASE_REPLICA_URL';
export const REPLICA_MAX_LAG_SETTING = 'DATABASE_REPLICA_MAX_LAG_SECONDS';
const DEFAULT_MAX_LAG_SECONDS = 30;

/**
 * DATABASE_REPLICA_URL, or undefined when the service has no replica (everything reads the primary). A replica is one
 * server: several hosts would leave the choice between replicas to nobody, so they are refused.
 */
export function replicaUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = envSetting(env, REPLICA_URL_SETTING);
  if (url === undefined) return undefined;
  let hosts: number;
  try {
    hosts = parseDatabaseUrl(url).hosts.length;
  } catch (error) {
    // The parser names DATABASE_URL; the part it found wrong is the same in this setting.
    if (error instanceof StartupRefusal) throw new StartupRefusal(REPLICA_URL_SETTING, error.message.slice(`${error.setting}: `.length));
    throw error;
  }
  if (hosts !== 1) throw new StartupRefusal(REPLICA_URL_SETTING, `must name one server, got ${hosts} hosts`);
  return url;
}

/** How far behind the primary the replica may be before the back office reads the primary instead (30 s). */
export function replicaMaxLagSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const text = envSetting(env, REPLICA_MAX_LAG_SETTING);
  if (text === undefined) return DEFAULT_MAX_LAG_SECONDS;
  if (!/^[1-9]\d{0,5}$/.test(text)) throw new StartupRefusal(REPLICA_MAX_LAG_SETTING, `must be a positive whole number of seconds, got ${JSON.stringify(text)}`);
  return Number(text);
}
