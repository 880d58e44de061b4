import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import type { Database } from '../db/client';
import { systemClock, type Clock } from '../clock';
import { claimDueNotifications, type ClaimedNotification } from './claim';
import { deliverClaimed } from './deliver-claimed';
import { NOTIFICATION_CHANNEL } from './enqueue';
import { expireDeferredNotifications } from './expire-deferred';
import type { ChannelNotificationFields } from './notification-form';

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
  private expiredAt = 0;

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
    if (this.options.listenUrl) await this.listen(this.options.listenUrl);
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    await this.listener?.end().catch(() => undefined);
  }

  private async listen(url: string): Promise<void> {
    this.listener = new pg.Client({ connectionString: url });
    this.listener.on('notification', () => this.wakeUp());
    this.listener.on('error', (error) => this.options.log?.(`notifications: listener failed (${error.message}); polling only`));
    await this.listener.connect();
    await this.listener.query(`LISTEN ${NOTIFICATION_CHANNEL}`);
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
      (error: unknown) => this.options.log?.(`notifications: attempt ${claim.attemptNo} of #${claim.id} not recorded: ${String(error)}`),
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
      try {
        const free = this.concurrency - this.inFlight.size;
        const claims = await this.claim(free);
        claims.forEach((claim) => void this.deliver(claim));
        exhausted = claims.length < free;
      } catch (error) {
        this.options.log?.(`notifications: claim failed: ${String(error)}`);
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
