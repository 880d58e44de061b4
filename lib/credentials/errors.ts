import { actionRefused, DomainError } from '../errors/domain-error';

/** The submitted credential has bad fields; `fieldErrors` names each one (keys are the input's field names). */
export function invalidCredential(fieldErrors: Readonly<Record<string, string>>): DomainError {
  const listed = Object.values(fieldErrors).join('; ');
  return new DomainError('invalid_credential', { message: listed, userMessage: `Check the fields below: ${listed}`, fieldErrors });
}

/** No such credential within the caller's reach (another merchant's, deleted, or unknown). */
export const credentialNotFound = (credentialId: number) => new DomainError('not_found', { message: `credential not found: ${credentialId}` });

/** Thrown when a channel has no simulator credential to offer (or its simulator is off here). */
export const sandboxCredentialUnavailable = (channel: string) => actionRefused(`${channel} sandbox credentials are not available`);
