import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StartupRefusal } from '../config/startup-refusal';
import { startStandbyPair, standbyPairUnavailable, type StandbyPair } from '../../test/standby-pair';
import { refuseUnfitReplica } from './replica-at-start';

const unavailable = standbyPairUnavailable();
const refusalOf = (work: Promise<unknown>) => work.then(() => undefined, (error: unknown) => error);

/** Two real primary-and-standby pairs (test/standby-pair.ts): the second's standby is a replica of another cluster. */
describe.skipIf(unavailable !== undefined)('DATABASE_REPLICA_URL at start-up', () => {
  let pair: StandbyPair;
  let otherCluster: StandbyPair;
  let primaryUrl: string;
  let replicaUrl: string;

  beforeAll(async () => {
    [pair, otherCluster] = await Promise.all([startStandbyPair(), startStandbyPair()]);
    primaryUrl = `postgres://postgres@127.0.0.1:${pair.primaryPort}/postgres`;
    replicaUrl = `postgres://postgres@127.0.0.1:${pair.standbyPort}/postgres`;
  });

  afterAll(async () => {
    await Promise.all([pair?.close(), otherCluster?.close()]);
  });

  it('start-up takes a standby of the primary, and refuses the primary itself and a standby of another cluster, naming the check', async () => {
    await expect(refuseUnfitReplica(primaryUrl, replicaUrl)).resolves.toBeUndefined();

    const primaryAsReplica = await refusalOf(refuseUnfitReplica(primaryUrl, primaryUrl));
    expect(primaryAsReplica).toBeInstanceOf(StartupRefusal);
    expect((primaryAsReplica as Error).message).toMatch(/^DATABASE_REPLICA_URL: 127\.0\.0\.1:\d+ is not in recovery \(pg_is_in_recovery\(\) is false\)/);

    const foreign = await refusalOf(refuseUnfitReplica(primaryUrl, `postgres://postgres@127.0.0.1:${otherCluster.standbyPort}/postgres`));
    expect(foreign).toBeInstanceOf(StartupRefusal);
    expect((foreign as Error).message).toMatch(/^DATABASE_REPLICA_URL: 127\.0\.0\.1:\d+ is of another cluster \(pg_control_system\(\)\.system_identifier \d+, the primary's \d+\)/);

    // One that does not answer is refused too (nothing fails open), naming the host and never the password.
    const dead = await refusalOf(refuseUnfitReplica(primaryUrl, 'postgres://reader:s3cret-pass@127.0.0.1:1/postgres'));
    expect((dead as Error).message).toMatch(/^DATABASE_REPLICA_URL: 127\.0\.0\.1:1 did not answer the start-up check/);
    expect((dead as Error).message).not.toContain('s3cret-pass');
  });
});
