import type { Database } from '../db/client';
import type { Merchant } from '../merchants/merchants';
import type { MerchantCheck } from '../merchants/merchant-check';
import type { RequestFields } from './request-fields';

/** A merchant's request whose signature has been checked: what an open-API operation of the domain works on. */
export interface SignedRequest {
  db: Database;
  merchant: Merchant;
  fields: RequestFields;
  /** The caller's address (a channel may pass the payer's to its upstream); 'unknown' when the transport cannot tell. */
  clientAddress: string;
  /** The request's id (X-Request-Id), stored with the order it creates. */
  requestId?: string;
  /** Present when the merchant was authenticated from its remembered row: what acts on the request confirms it first (merchant-check.ts). */
  merchantCheck?: MerchantCheck;
  /** The portal's test-order form submits it: the order is stored as a test order (orders.is_test). */
  isTest?: boolean;
}

/** A successful outcome: the contract's success message of the channel (its Channel.successMessage, 'success' or 'ok') and its data. */
export interface SuccessAnswer {
  message: 'success' | 'ok';
  data: unknown;
}

export const success = (message: SuccessAnswer['message'], data: unknown): SuccessAnswer => ({ message, data });
