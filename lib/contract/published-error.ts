/**
 * How one open-API error answer is published in the OpenAPI document and the portal's reference: by the code table
 * (lib/api/error-codes.ts) for what every channel shares, by a channel (Channel.openApi.errorCases) for its own cases.
 */
export interface PublishedError {
  /** The message as shown; for a kind without a fixed message, an example naming the field. */
  example?: string;
  /** The example is the exact text for its case (one message per channel), though the kind has no single one. */
  exact?: boolean;
  when: string;
}
