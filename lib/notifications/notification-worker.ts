import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type pg from 'pg';
import type { Database } from '../db/client';
import { systemClock, type Clock } from '../clock';
import { claimDueNotifications, type ClaimedNotification } from './claim';
import { deliverClaimed } from './deliver-claimed';
import { NOTIFICATION_CHANNEL } from './enqueue';
import { expireDeferredNotifications } from './expire-deferred';
import type { ChannelNotificationFields } from './notification-form';
import { describeFailure, isDatabaseUnavailable } from '../db/database-failure';
import { OutageLog } from '../db/outage-log';
import { databaseClient } from '../db/primary-client';

/** Opening the LISTEN connection; then, after it is lost, the pause before each new try. */
const LISTEN_CONNECT_TIMEOUT_MS = 5_000;
const LISTEN_RETRY_MS = 1_000;

export interface NotificationWorkerOptions {
  db: Database;
  /** Each order's channel's own fields of the form (the registry's notificationFieldsOf). */
  channelFields: ChannelNotificationFields;
  clock?: Clock;
  /** Deliveries in flight at once. */
  concurrency?: number;
  /** Deliveries in flight at once to one destination (host of the notifyUrl), so one that hangs cannot take every slot. */
  perDestination?: number;
  /** How long a claim holds before another worker may take the notification over (its holder presumed dead). */
  leaseMs?: number;
  /** Fallback poll when no NOTIFY arrives (clock-driven retries become due without one). */
  pollMs?: number;
  /** Waiting for the answer once connected (10 s). */
  timeoutMs?: number;
  /** For the name lookup and for the TCP connection (1 s each). */
  connectTimeoutMs?: number;
  /** Connection URL for LISTEN; without it the worker only polls. */
  listenUrl?: string;
  log?: (line: string) => void;
}

/**
 * Claims due notifications and delivers them, several at a time. `stop()` claims nothing more and waits for
 * the attempts in flight; a worker that is killed instead leaves leases that expire, so nothing is lost.
 */
export class NotificationWorker {
  readonly workerId = `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly clock: Clock;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly inFlight = new Set<Promise<unknown>>();
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  /** Set when something wakes the loop while it is claiming, so that the sleep after that claim does not wait. */
  private woken = false;
  private listener?: pg.Client;
  private listenRetry?: NodeJS.Timeout;
  /** Set from losing the LISTEN connection until it is back, so that both are logged once. */
  private listenerLost = false;
  private expiredAt = 0;
  /** Set while the queue cannot be read (the database is gone): one log line when it starts and one when it ends. */
  private outage = new OutageLog('notifications', (line) => this.options.log?.(line));

  constructor(private readonly options: NotificationWorkerOptions) {
    this.clock = options.clock ?? systemClock;
    this.concurrency = options.concurrency ?? 16;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pollMs = options.pollMs ?? 1_000;
  }

  /** Claims what is due now (up to the free slots) and waits for those deliveries; for tests and one-shot runs. */
  async runOnce(): Promise<number> {
    const claims = await this.claim(this.concurrency - this.inFlight.size);
    await Promise.all(claims.map((claim) => this.deliver(claim)));
    return claims.length;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    if (this.options.listenUrl) await this.listen(this.options.listenUrl).catch((error: unknown) => this.listenLost(error));
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp();
    await this.loop;
    clearTimeout(this.listenRetry);
    await Promise.allSettled([...this.inFlight]);
    await this.listener?.end().catch(() => undefined);
  }

  private async listen(url: string): Promise<void> {
    // On the primary of a multi-host URL: after a failover the retry below subscribes on the promoted standby, where
    // the NOTIFYs of the writes are sent from then on.
    const listener = databaseClient(url, { connectionTimeoutMillis: LISTEN_CONNECT_TIMEOUT_MS, keepAlive: true });
    listener.on('notification', () => this.wakeUp());
    listener.on('error', (error) => this.listenLost(error, listener));
    listener.on('end', () => this.listenLost(new Error('connection ended'), listener));
    try {
      await listener.connect();
      await listener.query(`LISTEN ${NOTIFICATION_CHANNEL}`);
    } catch (error) {
      void listener.end().catch(() => undefined); // a connection that opened but could not subscribe is not kept
      throw error;
    }
    if (!this.running) return void (await listener.end().catch(() => undefined));
    this.listener = listener;
    this.wakeUp(); // what was queued while nobody listened is claimed now (the catch-up read)
    if (this.listenerLost) this.options.log?.('notifications: listener back');
    this.listenerLost = false;
  }

  /**
   * The LISTEN connection died (the database restarted, the network was cut) or could not be opened: poll meanwhile,
   * and subscribe again after a pause, until stopped.
   */
  private listenLost(error: unknown, listener?: pg.Client): void {
    if (listener && listener !== this.listener) return; // an older connection's late event
    const wasListening = this.listener !== undefined;
    this.listener = undefined;
    listener?.removeAllListeners('end');
    listener?.on('error', () => undefined);
    void listener?.end().catch(() => undefined);
    if (!this.running || !this.options.listenUrl || this.listenRetry) return;
    if (wasListening) {
      this.listenerLost = true;
      this.options.log?.(`notifications: listener lost (${describeFailure(error)}); polling every ${this.pollMs} ms until it is back`);
    }
    const url = this.options.listenUrl;
    this.listenRetry = setTimeout(() => {
      this.listenRetry = undefined;
      if (this.running) this.listen(url).catch((retryError: unknown) => this.listenLost(retryError));
    }, LISTEN_RETRY_MS);
  }

  private async claim(limit: number): Promise<ClaimedNotification[]> {
    const now = this.clock.now();
    // Cycles held back past their horizon by an open circuit fail; checked once a poll interval, not on every claim.
    if (now.getTime() - this.expiredAt >= this.pollMs) {
      this.expiredAt = now.getTime();
      await expireDeferredNotifications(this.options.db, now);
    }
    return claimDueNotifications(this.options.db, { workerId: this.workerId, now, leaseMs: this.leaseMs, limit, perDestination: this.options.perDestination });
  }

  private deliver(claim: ClaimedNotification): Promise<unknown> {
    const { timeoutMs: responseTimeoutMs, connectTimeoutMs } = this.options;
    const delivery = deliverClaimed(this.options.db, claim, { workerId: this.workerId, clock: this.clock, channelFields: this.options.channelFields, responseTimeoutMs, connectTimeoutMs }).catch(
      (error: unknown) => this.options.log?.(`notifications: attempt ${claim.attemptNo} of #${claim.id} not recorded: ${describeFailure(error)}`),
    );
    this.inFlight.add(delivery);
    void delivery.finally(() => {
      this.inFlight.delete(delivery);
      this.wakeUp();
    });
    return delivery;
  }

  private async run(): Promise<void> {
    while (this.running) {
      // Fewer than asked for: nothing else may be claimed now (due, or under its destination's share) until an
      // attempt ends or a notification is queued, and both wake the loop.
      let exhausted = true;
      this.woken = false;
      const startedAt = this.outage.now();
      try {
        const free = this.concurrency - this.inFlight.size;
        const claims = await this.claim(free);
        claims.forEach((claim) => void this.deliver(claim));
        exhausted = claims.length < free;
        this.outage.answered(startedAt);
      } catch (error) {
        if (isDatabaseUnavailable(error)) this.outage.failed(error);
        else this.options.log?.(`notifications: claim failed: ${describeFailure(error)}`);
      }
      if (exhausted || this.inFlight.size >= this.concurrency) await this.sleep();
    }
  }

  private wakeUp(): void {
    this.woken = true;
    this.wake?.();
  }

  private sleep(): Promise<void> {
    if (this.woken) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.pollMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
