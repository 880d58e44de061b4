import type { DomainErrorKind } from '../errors/domain-error';
import type { PublishedError } from '../contract/published-error';
import type { SignedRequest } from '../validation/signed-request';
import type { ExampleFields } from '../contract/examples';
import type { Schema } from '../contract/schema-parts';
import type { Database } from '../db/client';
import type { OrderRow } from '../db/schema';
import type { QueriedOrder } from '../orders/find-order';
import type { ClosingChannel } from '../orders/close-order';
import type { PeriodicJob } from '../jobs/periodic-job';
import type { ChannelCredentials } from '../credentials/channel-credentials';
import type { ChannelOperatorParts } from './channel-operator';
import type { Locale } from '../i18n/locales';
import type { ChannelRefunds } from '../refunds/channel-refunds';
import type { ReconciliationSource } from '../reconciliation/bill-source';


/** A channel's parts of the OpenAPI document: its schemas, and which of them (its own or shared) describe each message. */
export interface ChannelOpenApi {
  schemas: Record<string, Schema>;
  submitRequest: string;
  createData: string;
  queryData: string;
  notification: string;
  /** A successful submit's answer, shown as the reply example. */
  submitReplyExample?: unknown;
  /** The open-API error answers only this channel gives, by kind, as the error catalogue publishes them. */
  errorCases?: Partial<Record<DomainErrorKind, readonly PublishedError[]>>;
  /** What closing one of its orders does, as the close operation says it after the channel's name (who is told, what follows). */
  closeBehaviour: string;
  /**
   * For a channel that refunds: the upstream's name of the platform's refund number (RefundData's refundNo), and the
   * upstream's state an `abnormal` refund stands for, when it has one.
   */
  refundBehaviour?: { refundNoUpstream: string; abnormalState?: string };
}

/** A transfer the chain linked to an order that did not pay it. */
export interface PaymentTrailTransfer {
  amount: string;
  from: string;
  transactionId: string;
  explorerUrl: string | null;
  blockTime: Date;
  /** Less than the order's amount, more, or after its window. */
  problem: 'short' | 'over' | 'late';
  /** How much was missing, for a short one. */
  shortBy: string | null;
}

/** What the merchant's order page shows of how an order was paid on a channel the service watches itself (a chain). */
export interface OrderPaymentTrail {
  /** The network, as the checkout named it to the payer, in each language. */
  network: { en: string; zh: string };
  receivingAddress: string;
  /** The sending address of the payment that paid it. */
  payer: string | null;
  /** The paying transaction and its explorer page. */
  transaction: { id: string; explorerUrl: string | null } | null;
  unpaidTransfers: PaymentTrailTransfer[];
}

/** What the payer's checkout polls: the state held here, never the browser's word. */
export interface CheckoutStatus {
  status: 'pending' | 'paid' | 'expired';
  /** Payments that reached the order without paying it (a chain transfer of another amount): the page shows each. */
  unpaidSeen?: number;
  secondsLeft: number;
  redirectUrl: string | null;
}

/** The order fields a channel's notification is made from. */
export interface NotifiedOrder {
  orderNo: string;
  payAmountMinor: bigint;
}

/**
 * One payment channel: everything the service does that differs by payType lives behind this interface, in the
 * channel's own folder (lib/channels/<name>/), and lib/channels/index.ts lists the channels. Shared code reads
 * the registry; it never names a channel. `CheckoutView` is the channel's own checkout view type. What it shows the
 * operator console is typed beside it (./channel-operator.ts), so a channel imports no console module.
 */
export interface Channel<CheckoutView = unknown> extends ChannelOperatorParts, ClosingChannel {
  /** The payType on the wire and orders.channel. */
  readonly name: string;
  /** How the portal and the API reference name it. */
  readonly label: string;
  /** The envelope message of a successful submit or query ('success' or 'ok', as the contract fixes per channel). */
  readonly successMessage: 'success' | 'ok';
  /** Parses and validates the submit's fields, creates (or recovers) the order and answers its data. */
  submit(context: SignedRequest): Promise<unknown>;
  /**
   * True when submit confirms the context's MerchantCheck before it acts (lib/merchants/merchant-check.ts), so its
   * requests may authenticate from the merchant's remembered row; others are authenticated on a fresh read.
   */
  submitConfirmsMerchant?: boolean;
  /** The query's data for one of this channel's orders. */
  queryData(order: QueriedOrder, now?: Date): unknown;
  /** The checkout state behind a payUrl token of this channel's order; undefined when the token is not one. */
  checkoutStatus(db: Database, payToken: string, now: Date): Promise<CheckoutStatus | undefined>;
  /**
   * What the payer's checkout page shows for a payUrl token of this channel's order (components/checkout/checkout-pages.tsx
   * picks the channel's page for it); undefined when the token is not one.
   */
  checkoutView(db: Database, payToken: string, now: Date): Promise<CheckoutView | undefined>;
  /** What the merchant's order page shows of the payment (network, addresses, transactions); absent when the upstream keeps it. */
  readonly paymentTrail?: (db: Database, order: OrderRow) => Promise<OrderPaymentTrail | undefined>;
  /**
   * The channel's own fields of the payment-success notification (order number and amount, by the contract's names);
   * the order number's is its orderNumberField, which its close and expiry notices use too.
   */
  notificationFields(order: NotifiedOrder): Record<string, string>;
  /** The upstream's callback receiver, served at /v1/api/callback/<name in lower case>; absent when the upstream has none. */
  readonly callback?: (request: Request) => Promise<Response>;
  /**
   * Where the sandbox is mounted: the paths of the channel's simulated upstream API (under /sandbox/), which its
   * adapters call as they call the real one. Machine to machine, so the pages' same-origin rule leaves them alone
   * (lib/security/same-origin.ts); the simulator's own pages and forms are not among them.
   */
  readonly sandboxApiPaths?: readonly RegExp[];
  /** The merchant's own upstream credentials, for a channel whose orders are placed with them; absent otherwise. */
  readonly credentials?: ChannelCredentials;
  /**
   * Reads the channel's settings when the worker starts and says what it will do; throws (StartupRefusal, naming the
   * setting) when a required one is missing, so the process stops before any job runs.
   */
  readonly describeStartup?: () => string[];
  /**
   * Reads the settings its requests use (submit, expiry), so that a malformed one stops the web process or the worker
   * at start, not at the first request; throws naming the setting.
   */
  readonly checkSettings?: () => void;
  /** What development's first run seeds for the channel and prints about it. */
  readonly firstRun?: ChannelFirstRun;
  /**
   * Development only: the module (its path from the project root) whose DevSandboxModule.startDevSandbox starts the
   * channel's local upstream (chain nodes…) before the worker reads its settings. A path, not an import, so that
   * the pages' bundles never take in the sandbox and its dependencies.
   */
  readonly devSandbox?: string;
  /** How the channel refunds a paid order (lib/refunds), or why it does not. */
  readonly refunds: ChannelRefunds;
  /** The channel's background jobs: its poller or chain watcher and its expiry. */
  readonly jobs: readonly PeriodicJob[];
  /** How the upstream's own record of a day (its bill, the chain) is read for the daily reconciliation, if it has one. */
  readonly reconciliation?: ReconciliationSource;
  /** The documented examples: one signed submit, the query of that order, its notification. */
  readonly examples: {
    submit(appId: string): ExampleFields;
    query(appId: string): ExampleFields;
    notification(appId: string): ExampleFields;
  };
  readonly openApi: ChannelOpenApi;
  /** The submit fields that take one value of a fixed list (the API reference lists them); absent when none does. */
  readonly submitChoices?: (locale: Locale) => readonly SubmitFieldChoices[];
  /** The portal's test-mode panel: the payment methods it offers and the channel's own submit fields of a test order. */
  readonly testOrder: ChannelTestOrder;
}

/** A submit field's allowed values, each with what it means and whether this service accepts it now. */
export interface SubmitFieldChoices {
  readonly field: string;
  readonly choices: readonly { value: string; meaning: string; isDefault: boolean; accepted: boolean }[];
}

export interface ChannelTestOrder {
  /** The methods a test order may use (the first is the default). */
  readonly payMethods: readonly string[];
  /** The channel's own submit fields (amount and method, by the contract's names) of a test order. */
  fields(input: { amount: string; payMethod: string }): Record<string, string>;
}

/** Development's first run (an empty database): what the channel needs for a demo order to be paid. */
export interface ChannelFirstRun {
  /** Runs inside the seeding transaction (e.g. adds a sandbox receiving address). */
  seed(db: Database): Promise<void>;
  /** The first-run banner's lines about it, each a label and its value. */
  describe(service: { baseUrl: string }): readonly { label: string; value: string }[];
}

/** The module a Channel's devSandbox names. */
export interface DevSandboxModule {
  /** Starts the local upstream, or says in a log line why not and answers undefined. */
  startDevSandbox(db: Database, log: (line: string) => void): Promise<{ close(): Promise<void> } | undefined>;
}

