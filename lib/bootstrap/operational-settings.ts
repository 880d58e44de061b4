import { poolSettings } from '../db/pool-settings';
import { deadlineIntervals } from '../jobs/job-deadline';
import { chainWatcherMaxLagMs } from '../jobs/job-staleness';

/**
 * The settings that bound waiting (database timeouts, job deadlines, the watcher's allowed lag), read once at start
 * so that a malformed one stops the process naming it instead of failing at the first query or run. In lib/bootstrap/
 * with what the entry points do at start: it gathers the settings of lib/db/ and lib/jobs/, which read lib/config/.
 */
export function checkOperationalSettings(env: NodeJS.ProcessEnv = process.env): void {
  poolSettings(env);
  deadlineIntervals(env);
  chainWatcherMaxLagMs(env);
}
