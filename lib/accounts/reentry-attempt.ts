import type { Database } from '../db/client';
import { DomainError } from '../errors/domain-error';
import { domainMessage } from '../errors/domain-message';
import { reentryRule, refundAttempt, takeAttempt } from './sign-in-throttle';

export function tooManyAttempts(retryAt: Date | undefined): DomainError {
  const minutes = retryAt ? Math.max(1, Math.ceil((retryAt.getTime() - Date.now()) / 60_000)) : 15;
  return new DomainError('too_many_attempts', {
    message: 'too many attempts; try again later',
    userMessage: domainMessage('accounts.tooManyAttempts', { minutes }),
  });
}

/**
 * Runs a signed-in account's answer to something only its person knows (the password asked again, an authenticator
 * code) under the account's re-entry throttle: the attempt is counted first (racing guesses cannot slip past the
 * limit), `check` throws on a wrong answer (which then stays counted) and the count starts afresh on a right one.
 */
export async function withReentryAttempt<T>(db: Database, accountId: number, now: Date, check: () => Promise<T>): Promise<T> {
  const rule = reentryRule(accountId);
  const verdict = await takeAttempt(db, [rule], now);
  if (!verdict.allowed) throw tooManyAttempts(verdict.retryAt);
  const answer = await check();
  await refundAttempt(db, { clear: rule });
  return answer;
}
