/** A chain watcher's requests a day on one network, against the provider's quota (start-up log, health page). */
export interface RequestBudget {
  /** The network (TRC20, ERC20, …). */
  network: string;
  /** Requests a day the watcher sends at these settings, whatever the chain's traffic, all endpoints answering. */
  perDay: number;
  /** And with every endpoint but one failing: each failing one is probed once a CHAIN_ENDPOINT_RETRY_MS. */
  worstPerDay: number;
  /** The configured daily quota, when there is one. */
  quota?: number;
  /** The setting that names the quota, for messages. */
  quotaSetting: string;
  formula: string;
}
