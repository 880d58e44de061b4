/** What the merchant should look at, by code; the page words it in the merchant's language (portal.signature.hints). */
export interface SignatureHint {
  code: SignatureHintCode;
  /** The fields the hint is about (empty or space-padded values). */
  fields?: string[];
}

export type SignatureHintCode =
  | 'emptyFieldsSigned'
  | 'sortedIgnoringCase'
  | 'urlEncoded'
  | 'keyInsteadOfAppsecret'
  | 'appendedDirectly'
  | 'secretLeftOut'
  | 'unreadable'
  | 'appIdMissing'
  | 'secretAsField'
  | 'spacedValues'
  | 'emptyLeftOut'
  | 'noSignature'
  | 'lowerCaseAccepted'
  | 'differs'
  | 'notMd5Length';

/** The values a hint's message takes (client-safe: the debugger's page words the hints in the browser). */
export function signatureHintValues(hint: SignatureHint): { suffix: string; fields: string } {
  return { suffix: '&appsecret=<AppSecret>', fields: (hint.fields ?? []).join(', ') };
}
