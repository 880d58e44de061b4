import pg from 'pg';
import { describeFailure } from './database-failure';
import { hostName, singleHostUrl, type DatabaseHost, type DatabaseUrl } from './database-url';
import { NoWritableHostError } from './no-writable-host';

/** One probe (connect and one statement) may take this long: a black-holed host must not hold up the next one. */
const PROBE_DEADLINE_MS = 2_000;

/**
 * Which host of a multi-host DATABASE_URL is the primary now. The one found is remembered, so a new connection costs
 * no probe; it is forgotten when a connection to it fails or a statement there meets a read-only server or a
 * connection-class error (lost), and the next connection probes again, the hosts in their order as libpq does. Probes
 * started while one runs wait for it: sixteen submitters in a failover make one round of probes, not sixteen.
 */
export class PrimaryLocator {
  private primary?: DatabaseHost;
  private probing?: Promise<DatabaseHost>;

  constructor(
    readonly url: DatabaseUrl,
    private readonly probeDeadlineMs = PROBE_DEADLINE_MS,
  ) {}

  /** The host that accepted writes when last asked, probing when none is known. */
  locate(): Promise<DatabaseHost> {
    if (this.primary) return Promise.resolve(this.primary);
    this.probing ??= this.probeInOrder().finally(() => (this.probing = undefined));
    return this.probing;
  }

  /** Something on this host says it is no longer the primary (or no longer there): the next connection probes again. */
  lost(host: DatabaseHost): void {
    if (this.primary === host) this.primary = undefined;
  }

  urlOf(host: DatabaseHost): string {
    return singleHostUrl(this.url, host);
  }

  private async probeInOrder(): Promise<DatabaseHost> {
    const answers: string[] = [];
    for (const host of this.url.hosts) {
      const answer = await this.probe(host);
      if (answer === 'accepts writes') {
        this.primary = host;
        return host;
      }
      answers.push(`${hostName(host)}: ${answer}`);
    }
    throw new NoWritableHostError(answers);
  }

  /** What one host says: 'accepts writes', or why not, in words fit for a log line and a start-up refusal. */
  private async probe(host: DatabaseHost): Promise<string> {
    const client = new pg.Client({ connectionString: this.urlOf(host), connectionTimeoutMillis: this.probeDeadlineMs, query_timeout: this.probeDeadlineMs });
    client.on('error', () => undefined); // the probe's answer is its statement's; a late socket error changes nothing
    let deadline: NodeJS.Timeout | undefined;
    const timedOut = new Promise<string>((resolve) => {
      deadline = setTimeout(() => resolve(`no answer within ${this.probeDeadlineMs} ms`), this.probeDeadlineMs);
    });
    try {
      return await Promise.race([this.ask(client), timedOut]);
    } catch (error) {
      return `unreachable (${describeFailure(error)})`;
    } finally {
      clearTimeout(deadline);
      void client.end().catch(() => undefined);
    }
  }

  private async ask(client: pg.Client): Promise<string> {
    await client.connect();
    if (this.url.targetSessionAttrs === 'primary') {
      const { rows } = await client.query<{ recovery: boolean }>('SELECT pg_is_in_recovery() AS recovery');
      return rows[0]?.recovery ? 'a standby (in recovery)' : 'accepts writes';
    }
    const { rows } = await client.query<{ transaction_read_only: string }>('SHOW transaction_read_only');
    return rows[0]?.transaction_read_only === 'off' ? 'accepts writes' : 'read-only (transaction_read_only is on)';
  }
}
