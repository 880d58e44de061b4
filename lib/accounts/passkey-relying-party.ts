import { publicBaseUrl } from '../orders/identifiers';

/** Who the passkeys belong to, for the browser and the authenticator: the service at its public address. */
export interface RelyingParty {
  /** The host name passkeys are made for (WebAuthn's RP ID): a passkey made here signs for this host alone. */
  id: string;
  name: string;
  /** The origin every ceremony's answer must come from (the browser writes it into what the authenticator signs). */
  origin: string;
}

/** From PUBLIC_BASE_URL: the address payers and staff open, as the browser sees it behind any proxy. */
export function relyingParty(): RelyingParty {
  const url = new URL(publicBaseUrl());
  return { id: url.hostname, name: 'Payment back office', origin: url.origin };
}
