/** The open API as the contract names it, for the bench's clients and its baseline (no code of the service). */
export const SUBMIT_PATH = '/v1/api/open/order/submit';
export const QUERY_PATH = '/v1/api/open/order/query';
