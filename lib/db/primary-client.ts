import pg from 'pg';
import { needsPrimaryLocator, parseDatabaseUrl } from './database-url';
import { signalsLostPrimary } from './failover-signals';
import { PrimaryLocator } from './primary-locator';

type ClientConfig = Omit<pg.ClientConfig, 'connectionString'>;
type ConnectCallback = (error: Error | null, client?: pg.Client) => void;

/** One locator per DATABASE_URL in the process: the pool, the LISTEN client and the start-up checks share what it found. */
const locators = new Map<string, PrimaryLocator>();

/** The locator of a multi-host (or target_session_attrs) URL; undefined for a plain URL, which node-postgres takes as is. */
export function primaryLocatorFor(url: string): PrimaryLocator | undefined {
  if (!needsPrimaryLocator(url)) return undefined;
  let locator = locators.get(url);
  if (!locator) {
    const parsed = parseDatabaseUrl(url);
    // One host that may be anything: nothing to choose, so node-postgres takes it as is (it ignores the parameter).
    if (parsed.hosts.length === 1 && parsed.targetSessionAttrs === 'any') return undefined;
    locator = new PrimaryLocator(parsed);
    locators.set(url, locator);
  }
  return locator;
}

/**
 * A node-postgres client that connects to the host its locator names when it connects (the pool builds clients
 * synchronously, before anything could be probed, so the host is settled in connect). Whatever tells that this host is
 * not the primary any more (a failed connect, a socket error, a server error of failover-signals) makes the locator
 * probe again for the next connection; this connection's own statement fails as it would anyway, answered 503.
 */
function primaryClientClass(locator: PrimaryLocator): new (config?: ClientConfig) => pg.Client {
  return class PrimaryClient extends pg.Client {
    constructor(config: ClientConfig = {}) {
      super({ ...config, connectionString: locator.urlOf(locator.url.hosts[0]!) });
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: ConnectCallback): void;
    override connect(callback?: ConnectCallback): Promise<pg.Client> | void {
      const connected = this.connectToPrimary();
      if (!callback) return connected;
      connected.then(
        (client) => callback(null, client),
        (error: Error) => callback(error),
      );
    }

    private async connectToPrimary(): Promise<pg.Client> {
      const primary = await locator.locate();
      // The pool's connect timeout may have fired while the primary was looked for: it destroys the socket to end
      // the attempt, and a socket connected after that would be handed to no one.
      if (this.connection.stream.destroyed) throw new Error('timeout exceeded when trying to connect');
      this.host = primary.host;
      this.port = primary.port;
      this.connection.on('errorMessage', (message: { code?: unknown }) => {
        if (signalsLostPrimary(message.code)) locator.lost(primary);
      });
      this.connection.on('error', () => locator.lost(primary));
      try {
        await super.connect();
      } catch (error) {
        locator.lost(primary);
        throw error;
      }
      return this;
    }
  } as unknown as new (config?: ClientConfig) => pg.Client;
}

const clientClasses = new WeakMap<PrimaryLocator, new (config?: ClientConfig) => pg.Client>();

/** The client class for a pool on this URL (the Pool's Client option): node-postgres's own for a plain URL. */
export function clientClassFor(url: string): new (config?: ClientConfig) => pg.Client {
  const locator = primaryLocatorFor(url);
  if (!locator) return pg.Client;
  let clientClass = clientClasses.get(locator);
  if (!clientClass) {
    clientClass = primaryClientClass(locator);
    clientClasses.set(locator, clientClass);
  }
  return clientClass;
}

/** A direct client (migrations, key check, LISTEN) on this URL: on its primary when the URL lists several hosts. */
export function databaseClient(url: string, config: ClientConfig = {}): pg.Client {
  const ClientClass = clientClassFor(url);
  return ClientClass === pg.Client ? new pg.Client({ ...config, connectionString: url }) : new ClientClass(config);
}
