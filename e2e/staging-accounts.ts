import { randomBytes } from 'node:crypto';

/**
 * The upstream accounts of the staging service the browser tests drive, in the environment of the run: the service
 * and the sandbox CLIs the tests run must agree on them. Production refuses the YHT sandbox's published account, so
 * the staging service has one of its own, which the sandbox takes as given (`npm run sandbox -- yht pay` signs its
 * callback with it). Set before the test workers start, which inherit it.
 */
export function settleStagingAccounts(env: NodeJS.ProcessEnv = process.env): void {
  env.YHT_MERCHANT_NO ??= 'YHT-STAGING-E2E';
  env.YHT_KEY ??= randomBytes(24).toString('hex');
}
