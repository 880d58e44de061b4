/** The open API's paths: one list for the routes' documentation, the OpenAPI document and the example programs. */
export const OPENAPI_DOCUMENT_PATH = '/v1/api/open/openapi.json';
export const SUBMIT_PATH = '/v1/api/open/order/submit';
export const QUERY_PATH = '/v1/api/open/order/query';
export const CLOSE_PATH = '/v1/api/open/order/close';
export const REFUND_SUBMIT_PATH = '/v1/api/open/refund/submit';
export const REFUND_QUERY_PATH = '/v1/api/open/refund/query';
