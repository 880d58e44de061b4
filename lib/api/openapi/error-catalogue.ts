import { CHANNELS } from '../../channels/index';
import type { DomainErrorKind } from '../../errors/domain-error';
import { INTERNAL_ERROR, OPEN_API_CODES, SUCCESS_CODE, TEMPORARILY_UNAVAILABLE_MESSAGE } from '../error-codes';

/**
 * Every envelope code the open API answers, with its message, as published (OpenAPI document, portal reference).
 * The messages that the contract fixes are exact; the others name the offending field and are shown by example.
 */
export interface DocumentedError {
  code: number;
  /** The exact message, or an example when `exact` is false. */
  message: string;
  exact: boolean;
  when: string;
  /** HTTP status of the answer (every handled outcome is 200). */
  httpStatus: number;
}

function channelsAnswering(successMessage: 'success' | 'ok'): string {
  return CHANNELS.filter((channel) => channel.successMessage === successMessage)
    .map((channel) => channel.name)
    .join(' and ');
}

const SUCCESS: DocumentedError = {
  code: SUCCESS_CODE,
  message: 'success',
  exact: true,
  httpStatus: 200,
  when: `Success (${channelsAnswering('success')}; ${channelsAnswering('ok')} answer "ok").`,
};
const INTERNAL: DocumentedError = {
  ...INTERNAL_ERROR,
  exact: true,
  httpStatus: 500,
  when: 'Unexpected failure of the service. Retry later; nothing half-done is kept.',
};
const TEMPORARILY_UNAVAILABLE: DocumentedError = {
  code: INTERNAL_ERROR.code,
  message: TEMPORARILY_UNAVAILABLE_MESSAGE,
  exact: true,
  httpStatus: 503,
  when: 'The service cannot reach its database for now (a restart, a failover). Retry after the `Retry-After` header\'s seconds; a submit stored just before answers that order.',
};

/** Built from the one code table (error-codes.ts) and each channel's own cases (the registry), in code order; nothing here is written twice. */
export const DOCUMENTED_ERRORS: readonly DocumentedError[] = [
  SUCCESS,
  INTERNAL,
  TEMPORARILY_UNAVAILABLE,
  ...(Object.entries(OPEN_API_CODES) as [DomainErrorKind, (typeof OPEN_API_CODES)[DomainErrorKind]][]).flatMap(([kind, entry]) =>
    (entry.published === undefined ? [] : [...entry.published, ...CHANNELS.flatMap((channel) => channel.openApi.errorCases?.[kind] ?? [])]).map(({ example, exact, when }) => ({
      code: entry.code,
      message: entry.message ?? example ?? '',
      exact: entry.message !== undefined || exact === true,
      httpStatus: 200,
      when,
    })),
  ),
].sort((a, b) => a.code - b.code);
