/**
 * How the portal asks for a channel's credential: the inputs in order, described as data so one form renders every
 * channel's (components/portal/credential-forms.tsx). Labels and hints are message keys under
 * `portal.credentials.<channel name in lower case>` in messages/<locale>/portal.json, so the page speaks the reader's
 * language; input names are the fields the channel's `validate` reads.
 */
export interface CredentialFormField {
  readonly kind: 'text' | 'textarea' | 'password';
  /** The input's name: the submitted field. */
  readonly name: string;
  /** Message key of the label. */
  readonly label: string;
  /** Message key of the hint under the label. */
  readonly hint?: string;
  readonly required?: boolean;
  /** Digits only: phones offer the number pad. */
  readonly numeric?: boolean;
}

/** Ways of giving one part of the credential, one at a time (radio buttons); the first is chosen to begin with. */
export interface CredentialFormChoice {
  readonly kind: 'choice';
  /** The radio group's name (submitted, not validated). */
  readonly name: string;
  /** Message key of the group's legend. */
  readonly legend: string;
  readonly alternatives: readonly { readonly value: string; readonly label: string; readonly fields: readonly CredentialFormField[] }[];
}

export type CredentialFormPart = CredentialFormField | CredentialFormChoice;

export interface CredentialForm {
  readonly parts: readonly CredentialFormPart[];
}
