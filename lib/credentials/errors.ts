import { actionRefused, DomainError } from '../errors/domain-error';
import { domainMessage, type DomainMessage } from '../errors/domain-message';
import { englishText } from '../i18n/domain-translator';

/**
 * The submitted credential has bad fields; `fieldErrors` names each one (keys are the input's field names). The
 * message lists them in English for the CLI and logs; a form translates the same messages for its reader.
 */
export function invalidCredential(fieldErrors: Readonly<Record<string, DomainMessage>>): DomainError {
  const problems = Object.values(fieldErrors);
  return new DomainError('invalid_credential', {
    message: problems.map(englishText).join('; '),
    userMessage: domainMessage('credentialFields.checkFields', { problems }),
    fieldErrors,
  });
}

/** No such credential within the caller's reach (another merchant's, deleted, or unknown). */
export const credentialNotFound = (credentialId: number) => new DomainError('not_found', { message: `credential not found: ${credentialId}` });

/** Thrown when a channel has no simulator credential to offer (or its simulator is off here). */
export const sandboxCredentialUnavailable = (channel: string) => actionRefused(`${channel} sandbox credentials are not available`);
