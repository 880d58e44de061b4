/**
 * Each chain's public block explorer, where a payer or a merchant checks a transaction by its id (the page the
 * network's own documentation points to: Tronscan for TRON, Etherscan, BscScan and PolygonScan for the EVM chains).
 */
const TRANSACTION_PAGES: Record<string, (id: string) => string> = {
  TRC20: (id) => `https://tronscan.org/#/transaction/${id}`,
  ERC20: (id) => `https://etherscan.io/tx/${id}`,
  BEP20: (id) => `https://bscscan.com/tx/${id}`,
  POLYGON: (id) => `https://polygonscan.com/tx/${id}`,
};

/** A transaction id as chains write it: 64 hex digits (TRON), 0x and 64 hex digits (EVM). */
const TRANSACTION_ID = /^(0x)?[0-9a-fA-F]{64}$/;

/** The explorer page of transaction `id` on `chainName`; undefined for another chain or an id that is not a transaction's. */
export function explorerTransactionUrl(chainName: string, id: string): string | undefined {
  const page = TRANSACTION_PAGES[chainName];
  return page && TRANSACTION_ID.test(id) ? page(id) : undefined;
}
