import { StartupRefusal } from '../config/startup-refusal';
import { NoWritableHostError } from './no-writable-host';
import { primaryLocatorFor } from './primary-client';

/**
 * At start, a multi-host DATABASE_URL must have a host that accepts writes: when every host answers read-only or
 * not at all the process refuses to start, naming DATABASE_URL and what each host answered (a URL listing only
 * standbys would otherwise serve nothing but 503s). A plain URL is not probed: its first connection says enough.
 */
export async function refuseWithoutPrimary(url: string): Promise<void> {
  const locator = primaryLocatorFor(url);
  if (!locator) return;
  try {
    await locator.locate();
  } catch (error) {
    if (!(error instanceof NoWritableHostError)) throw error;
    throw new StartupRefusal('DATABASE_URL', `no host accepts writes: ${error.answers.join('; ')}; list the primary's host, or wait for the standby's promotion`);
  }
}
