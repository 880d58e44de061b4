/**
 * npm run drill:failover: the failover drill of docs/operations.md ("Failover"), with real servers, on this machine.
 * It starts a PostgreSQL primary and its synchronous standby from the machine's binaries (POSTGRES_BIN, Debian's
 * postgresql-15 by default), the service's open API and notification worker on the multi-host URL naming both, a
 * merchant's receiver and an advisory-lock job in two workers; puts submitters and a payer on it; kills the primary
 * (-9), promotes the standby, goes on, and prints what it saw. Exit 0 when every rule held, 1 when one did not (each
 * named), 2 on a wrong argument or without the binaries. Everything it started is stopped and removed on the way out.
 */
import { randomBytes } from 'node:crypto';

const USAGE = [
  'usage: npm run drill:failover -- [--submitters=16] [--before-kill-ms=1500] [--kill-to-promote-ms=1000] [--after-promotion-ms=4000]',
  '',
  'Runs a primary-and-standby failover under load with real PostgreSQL servers (POSTGRES_BIN, default',
  '/usr/lib/postgresql/15/bin) and prints: requests during the switch by answer, time to the first success after the',
  'promotion, orders acknowledged vs found, notifications lost/doubled, the LISTEN and the jobs on the new primary.',
].join('\n');
const DEFAULTS = { submitters: 16, 'before-kill-ms': 1_500, 'kill-to-promote-ms': 1_000, 'after-promotion-ms': 4_000 };
/** The whole drill, start to figures: past it everything is stopped and the drill fails. */
const DRILL_DEADLINE_MS = 120_000;

function parseArguments(args: readonly string[]): typeof DEFAULTS {
  const settings = { ...DEFAULTS };
  for (const arg of args) {
    const match = /^--([a-z-]+)=(\d{1,6})$/.exec(arg);
    if (!match || !(match[1]! in DEFAULTS)) {
      console.error(`failover drill: unknown or malformed argument ${JSON.stringify(arg)}\n\n${USAGE}`);
      process.exit(2);
    }
    settings[match[1] as keyof typeof DEFAULTS] = Number(match[2]);
  }
  if (settings.submitters < 1) {
    console.error(`failover drill: --submitters must be at least 1\n\n${USAGE}`);
    process.exit(2);
  }
  return settings;
}

const settings = parseArguments(process.argv.slice(2));
// The drill's databases are its own and thrown away: a key of its own encrypts their secrets, and the merchant's
// receiver listens on loopback, which the notification guard refuses unless told.
process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString('hex');
process.env.NEXTAUTH_SECRET ??= randomBytes(32).toString('base64url');
process.env.NOTIFY_ALLOW_PRIVATE_NETWORKS = 'true';

const { standbyPairUnavailable } = await import('../test/standby-pair');
const { DRILL_SETTINGS, startFailoverBed } = await import('../test/failover-bed');
const { runFailoverLoad } = await import('../test/failover-load');
const { describeFigures, failoverFigures, failoverProblems } = await import('../test/failover-figures');

const unavailable = standbyPairUnavailable();
if (unavailable) {
  console.error(`failover drill: ${unavailable}`);
  process.exit(2);
}

console.log(`failover drill: starting a primary and its synchronous standby; ${settings.submitters} submitters`);
const bed = await startFailoverBed(DRILL_SETTINGS);
const stopOnSignal = (signal: NodeJS.Signals) => void bed.close().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
process.once('SIGINT', stopOnSignal).once('SIGTERM', stopOnSignal);
let timer: NodeJS.Timeout | undefined;
let exitCode = 1;
try {
  const drill = (async () => {
    const run = await runFailoverLoad(bed, {
      submitters: settings.submitters,
      beforeKillMs: settings['before-kill-ms'],
      killToPromoteMs: settings['kill-to-promote-ms'],
      afterPromotionMs: settings['after-promotion-ms'],
    });
    const figures = await failoverFigures(bed, run);
    for (const line of describeFigures(figures, run)) console.log(`failover drill: ${line}`);
    return failoverProblems(figures);
  })();
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`not finished within ${DRILL_DEADLINE_MS / 1000} s`)), DRILL_DEADLINE_MS)));
  const problems = await Promise.race([drill, late]);
  exitCode = problems.length === 0 ? 0 : 1;
  console.log(problems.length === 0 ? 'failover drill: passed' : `failover drill: FAILED: ${problems.join('; ')}`);
} catch (error) {
  console.log(`failover drill: FAILED: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  clearTimeout(timer);
  await bed.close();
}
process.exit(exitCode);
