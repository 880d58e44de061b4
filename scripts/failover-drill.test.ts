import { describe, expect, it } from 'vitest';
import { runScript } from '../test/run-script';
import { standbyPairUnavailable } from '../test/standby-pair';

/**
 * The failover drill as an operator runs it (npm run drill:failover), with short settings: it starts its own pair of
 * servers, prints the figures and passes (exit 0); a wrong argument is refused with the usage (exit 2).
 */
const unavailable = standbyPairUnavailable();
if (unavailable) console.warn(`failover drill test skipped: ${unavailable}`);

describe('scripts/failover-drill.ts', () => {
  it('refuses an unknown argument with the usage, exit 2, before starting anything', async () => {
    const run = await runScript('scripts/failover-drill.ts', { env: process.env, args: ['--submiters=4'] });
    expect(run.exitCode, run.output).toBe(2);
    expect(run.output).toContain('unknown or malformed argument "--submiters=4"');
    expect(run.output).toContain('usage: npm run drill:failover');
  });

  it.skipIf(unavailable !== undefined)('runs a failover with real servers, prints the figures and passes', { timeout: 180_000 }, async () => {
    const run = await runScript('scripts/failover-drill.ts', {
      env: process.env,
      args: ['--submitters=4', '--before-kill-ms=800', '--kill-to-promote-ms=500', '--after-promotion-ms=2000'],
      timeoutMs: 150_000,
    });
    console.log(run.output.split('\n').filter((line) => line.startsWith('failover drill:')).join('\n'));
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output).toMatch(/failover drill: requests: before the kill \d+ code 0 \/ 0 503\+1000 \/ 0 other; between kill and promotion \(\d+ ms\) \d+ code 0 \/ \d+ 503\+1000 \/ 0 other; .*HTTP 500: 0/);
    expect(run.output).toMatch(/failover drill: first success \d+ ms after the promotion \(4 submitters\)/);
    expect(run.output).toMatch(/failover drill: orders: (\d+) acknowledged, \1 found once on the new primary, 0 lost, 0 doubled/);
    expect(run.output).toMatch(/failover drill: notifications: .*, (\d+) paid orders on the new primary, \1 notified, 0 lost, \d+ delivered twice \(0 beyond the lease rule\)/);
    expect(run.output).toMatch(/failover drill: jobs: first run on the new primary -?\d+ ms after the promotion; 1 run\(s\) in flight at the kill, ended \d+ ms after it; 0 overlapping run\(s\)/);
    expect(run.output).toContain('failover drill: passed');
  });
});
