import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { settleStagingAccounts } from './e2e/staging-accounts';
import { CHANNEL_NAMES } from './lib/channels/channel-names';

const port = Number(process.env.E2E_PORT ?? 3210);
export const baseURL = `http://localhost:${port}`;

// On a DATABASE_URL every process needs the secrets (on the embedded database they come from its data dir). Set
// here, before the workers fork, so the service and the CLIs the tests run agree; the database is the run's own.
// The commands the tests run (admin, sandbox) belong with the development server under test: without NODE_ENV a
// process on a DATABASE_URL is in production, where the sandbox is off.
if (process.env.DATABASE_URL) {
  (process.env as Record<string, string>).NODE_ENV ??= 'development';
  process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString('hex');
  process.env.NEXTAUTH_SECRET ??= randomBytes(32).toString('base64url');
}

/** Debian's Chromium, never a downloaded browser; these flags keep it off the (closed) network. */
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

/**
 * The browser tests run against a production build by default (what an operator serves: every page compiled once, at
 * the build); `E2E_SERVER=development` runs them against `npm run dev`. The development server's own behaviour (its
 * host, its origins, Ctrl-C, Fast Refresh) is tested in a fresh clone by scripts/dev-server.test.ts.
 */
if (!['development', 'production', undefined].includes(process.env.E2E_SERVER)) throw new Error(`E2E_SERVER must be development or production (got ${process.env.E2E_SERVER})`);
const onDevelopmentServer = process.env.E2E_SERVER === 'development';
/** The specs' own question (e2e/factories.ts): on the staging service, a sandbox chain transfer needs an operator. */
export const onStagingService = !onDevelopmentServer;

if (onStagingService) settleStagingAccounts();

/** Screenshot and axe checks of every page (layout, not behaviour): `E2E_VISUAL=off` leaves them out of a run. */
const visualChecks = process.env.E2E_VISUAL === 'off' ? ['**/visual/*-pages.spec.ts'] : [];
/** `E2E_PROJECTS=desktop` runs one screen size only (a second database changes no layout). */
const projectNames = (process.env.E2E_PROJECTS ?? 'desktop,phone').split(',').map((name) => name.trim());

/**
 * `E2E_SCOPE=database`: the flows whose outcome the database can change (orders paid through each channel's upstream
 * and the worker, notifications, the merchant's and the operator's writes), for a second run on another PostgreSQL;
 * access rules, headers, navigation and layout are the same on any database and run once.
 */
// Each channel's folder of specs (e2e/<name>/; USDT's checkout flows are in checkout/), from the registry's names.
const channelFolders = CHANNEL_NAMES.filter((name) => existsSync(`e2e/${name.toLowerCase()}`)).map((name) => `${name.toLowerCase()}/`);
const databaseFlows = [...channelFolders, 'checkout/', 'portal/portal.spec.ts', 'operator/console.spec.ts', 'operator/review-approve.spec.ts'];
const specsInScope = process.env.E2E_SCOPE === 'database' ? databaseFlows : [''];

/**
 * The specs that read what other specs write: the console's lists and counts, the pool's share and the USDT limit,
 * the audit log since an id, the pages' screenshots and the words on every page (lists masked, but laid out by what is
 * there), and review-approve, whose approved Alipay account (the merchant's own keys, not the sandbox's) every later
 * reconciliation of the channel asks and cannot read: it runs after the reconciliation specs, as files run in order.
 * They run one at a time, after every other spec, each screen after the one before; the other specs make and read
 * their own merchants, orders and operators, and run two at a time.
 */
const SHARED_STATE_SPECS = [
  'visual/',
  'i18n/',
  'portal/pages-review.spec.ts',
  'portal/test-orders.spec.ts',
  'orders/one-state.spec.ts',
  'operator/console-actions.spec.ts',
  'operator/console.spec.ts',
  'operator/access.spec.ts',
  'operator/reconciliation.spec.ts',
  'operator/failing-destinations.spec.ts',
  'operator/pool-share.spec.ts',
  'operator/chain-health.spec.ts',
  'operator/review-approve.spec.ts',
];

/** Specs by their path under e2e/, where a folder (ending in /, or '' for all of them) stands for every spec in it. */
const asGlobs = (specs: readonly string[]) => specs.map((spec) => (spec === '' || spec.endsWith('/') ? `**/${spec}*.spec.ts` : `**/${spec}`));
/** The specs in both lists: of a folder and a spec in it, the spec. */
const specsInBoth = (first: readonly string[], second: readonly string[]) =>
  first.flatMap((one) => second.filter((other) => other.startsWith(one) || one.startsWith(other)).map((other) => (other.length > one.length ? other : one)));

const screens = [
  { name: 'desktop', use: { ...devices['Desktop Chrome'], launchOptions: chromium }, testIgnore: visualChecks },
  {
    name: 'phone',
    use: { ...devices['Pixel 7'], launchOptions: chromium },
    // Specs whose subject is the server (who may reach what, headers, the API reference's text, sign-out, paging,
    // the circuit breaker, review and console flows) run on desktop only: the screen does not change their outcome,
    // and every page's phone layout is checked once per language by e2e/visual (screenshots and axe). So do the
    // back office's flows at a desk (sign-up, AppSecret, refunds, credentials) and the cross-surface state check;
    // the payer's flows (checkout, cancel) and the back office's phone navigation and tables stay on the phone.
    testIgnore: [
      ...visualChecks,
      ...asGlobs([
        'orders/one-state.spec.ts',
        'portal/portal.spec.ts',
        'portal/refunds.spec.ts',
        'portal/credentials.spec.ts',
        'portal/passkeys.spec.ts',
        'operator/access.spec.ts',
        'portal/ownership.spec.ts',
        'security-headers.spec.ts',
        'portal/api-reference.spec.ts',
        'operator/sign-out.spec.ts',
        'portal/order-paging.spec.ts',
        'operator/chain-health.spec.ts',
        'operator/failing-destinations.spec.ts',
        'operator/review-approve.spec.ts',
        'operator/console.spec.ts',
        'operator/reconciliation.spec.ts',
      ]),
    ],
  },
];

const screensRun = screens.filter((screen) => projectNames.includes(screen.name));

/** Each screen's shared-state specs wait for every side-by-side spec, and the phone's for the desktop's too. */
function sharedStateAfter(screen: string): string[] {
  const sideBySide = screensRun.map((each) => `${each.name}-side-by-side`);
  return screen === 'phone' && projectNames.includes('desktop') ? [...sideBySide, 'desktop'] : sideBySide;
}

export default defineConfig({
  testDir: 'e2e',
  // A second run beside this one (CI's server pass) keeps its failures' files apart: each run clears its own at start.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  testMatch: asGlobs(specsInScope),
  testIgnore: visualChecks,
  timeout: 60_000,
  // Pages compile on their first visit in dev mode (2 cores, shared with PostgreSQL and the workers): wait longer
  // than the default 5 s before an expectation fails.
  expect: { timeout: 15_000 },
  // Two at a time (two cores) where the projects below allow it.
  workers: 2,
  reporter: [['list']],
  use: { baseURL, launchOptions: chromium, trace: 'off' },
  projects: screensRun.flatMap((screen) => [
      // The specs of their own data, two at a time (both screens' side by side), before the rest.
      { name: `${screen.name}-side-by-side`, testIgnore: [...screen.testIgnore, ...asGlobs(SHARED_STATE_SPECS)], use: screen.use },
      // Then the specs that read what others write, one at a time: the desktop's, then the phone's. (Named for the
      // screen alone: the screenshot baselines carry the project's name.)
      {
        name: screen.name,
        testMatch: asGlobs(specsInBoth(specsInScope, SHARED_STATE_SPECS)),
        testIgnore: screen.testIgnore,
        use: screen.use,
        workers: 1,
        dependencies: sharedStateAfter(screen.name),
      },
    ]),
  // The service as a staging deployment runs it (a production build, e2e/staging-service.ts), or with
  // E2E_SERVER=development as a newcomer starts it (`npm run dev`); on its own embedded data dir unless DATABASE_URL is set.
  webServer: {
    command: onDevelopmentServer ? 'npm run dev' : 'npx tsx e2e/staging-service.ts',
    url: `${baseURL}/`,
    // A production build first (about a minute, once for the sources as they are); a development server compiles later.
    timeout: 600_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    env: {
      PORT: String(port),
      PUBLIC_BASE_URL: baseURL,
      EMBEDDED_PG_DIR: process.env.E2E_EMBEDDED_PG_DIR ?? '.data/e2e-pg',
      NEXT_TELEMETRY_DISABLED: '1',
      // The merchant's receiver in the tests listens on loopback.
      NOTIFY_ALLOW_PRIVATE_NETWORKS: 'true',
      // The sandbox chain confirms and the watcher polls every second, so a payment shows within seconds.
      CHAIN_POLL_MS: '1000',
      SANDBOX_TRON_CONFIRM_MS: '1000',
      // The sandbox EVM nodes `npm run dev` starts (three ports from here), polled every second.
      SANDBOX_EVM_BASE_PORT: process.env.E2E_EVM_BASE_PORT ?? '8545',
      EVM_POLL_MS: '1000',
      // Every portal spec signs up from loopback, and the e2e data dir outlives a run.
      SIGN_UPS_PER_HOUR_PER_ADDRESS: '10000',
      // A proxy on its own loopback address, as a deployment has one: the sign-in lock-out spec posts from it, naming
      // each guesser's network in X-Forwarded-For. The browser's requests (127.0.0.1) are nobody's proxy.
      TRUST_PROXY: '127.0.0.2',
      // Chromium, Next.js's on-demand compiles and the database share two cores: a new pool connection once took over
      // the production default's 5 s there, and the checkout page it served answered 500.
      DATABASE_CONNECT_TIMEOUT_MS: '20000',
    },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
