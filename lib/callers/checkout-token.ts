import { DomainError, type DomainErrorKind } from '../errors/domain-error';
import { merchantFormRefusal } from '../errors/form-answer';
import { formWords } from '../i18n/form-words';
import { LOCALE_COOKIE, pickLocale } from '../i18n/locales';
import { logFailure, logSuccess } from './log-failure';

type TokenParams = { params: Promise<{ token: string }> };

const STATUS_OF: Partial<Record<DomainErrorKind, number>> = { not_found: 404, order_not_found: 404, upstream_failure: 503 };

const noStore = { 'cache-control': 'no-store' };

/**
 * The one wrapper for what a payer's browser asks by checkout token (no account, no signature: the token is the only
 * key). An unknown token is 404; a DomainError is answered with its payer-safe text (never the internal message);
 * anything else is logged and answered 500 without details.
 */
export function checkoutTokenRoute<T>(read: (token: string, now: Date) => Promise<T | undefined>, answer: (found: T) => unknown) {
  return async function GET(request: Request, { params }: TokenParams): Promise<Response> {
    const token = (await params).token;
    try {
      const startedAt = Date.now();
      const found = await read(token, new Date());
      logSuccess('checkout', startedAt);
      if (found === undefined) return Response.json({ error: 'not found' }, { status: 404, headers: noStore });
      return Response.json(answer(found), { headers: noStore });
    } catch (error) {
      if (error instanceof DomainError) {
        const words = await formWords(payerLocale(request));
        return Response.json({ error: merchantFormRefusal(error, words).message }, { status: STATUS_OF[error.kind] ?? 409, headers: noStore });
      }
      logFailure('checkout', error);
      return Response.json({ error: 'internal error' }, { status: 500, headers: noStore });
    }
  };
}

function payerLocale(request: Request) {
  const cookie = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]*)`).exec(request.headers.get('cookie') ?? '')?.[1];
  return pickLocale({ cookie, acceptLanguage: request.headers.get('accept-language') });
}
