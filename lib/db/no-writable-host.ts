/**
 * No host of DATABASE_URL accepts writes right now: during a failover (the primary gone, the standby not yet
 * promoted) this is an outage like any other, answered 503 and retried; at start it is a refusal naming each host's
 * answer. The answers name hosts and ports only, never the user or the password.
 */
export class NoWritableHostError extends Error {
  constructor(readonly answers: readonly string[]) {
    super(`no host of DATABASE_URL accepts writes (${answers.join('; ')})`);
    this.name = 'NoWritableHostError';
  }
}
