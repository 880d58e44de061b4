import { getServerSession } from 'next-auth';
import { getTranslations } from 'next-intl/server';
import { getDb } from '@/lib/db/client';
import { roleMay } from '@/lib/accounts/team-roles';
import { backOfficeDb } from '@/app/_back-office/back-office-db';
import { loadMerchantContext } from '@/lib/portal/merchant-context';
import { STATEMENT_COLUMNS, statementRange, type StatementColumn, type StatementRefusal } from '@/lib/portal/merchant-statement';
import { startStatementExport } from '@/lib/portal/statement-export';
import { authOptions } from '../../_session/auth-options';
import { ORDER_STANDINGS } from '@/lib/orders/order-standing';
import { REFUND_STATES } from '@/lib/db/schema/refunds';

export const dynamic = 'force-dynamic';

/**
 * A range the statement refuses: a browser's form submission goes back to the form on the order list, which shows the
 * error on its field (the page keeps its layout and language); any other client gets 400 naming the field.
 */
function refusal(request: Request, reason: StatementRefusal, days: { from?: string; to?: string }, message: string): Response {
  const fromAPage = (request.headers.get('accept') ?? '').includes('text/html');
  if (!fromAPage) return new Response(message, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  const back = new URLSearchParams({ statementError: reason });
  // Only well-formed days are carried back to the form; anything else the merchant types again.
  for (const [name, day] of Object.entries(days)) if (day && /^\d{4}-\d{2}-\d{2}$/.test(day)) back.set(`statement${name === 'from' ? 'From' : 'To'}`, day);
  return new Response(null, { status: 303, headers: { location: `/portal/orders?${back}#statement`, 'cache-control': 'no-store' } });
}

/**
 * `GET /portal/statement?from=yyyy-MM-dd&to=yyyy-MM-dd[&test=include]`: the signed-in merchant's orders and refunds of the
 * range as a CSV file (test orders only when asked), streamed from the database as it is written. One export per
 * merchant at a time (lib/portal/statement-export.ts): a second, while the first streams, is answered 429 saying so.
 */
export async function GET(request: Request) {
  const session = await getServerSession(authOptions());
  const merchant = session ? await loadMerchantContext(getDb(), { accountId: session.accountId, sessionVersion: session.sessionVersion, sessionId: session.sessionId }) : undefined;
  if (!merchant) return new Response('sign in to download statements', { status: 401, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  const t = await getTranslations('portal.statement');
  if (!roleMay(merchant.teamRole, 'statements') || merchant.mustSetUpSecondFactor) return new Response(t('roleRefused'), { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  const params = new URL(request.url).searchParams;
  const from = params.get('from') ?? undefined;
  const to = params.get('to') ?? undefined;
  const range = statementRange(from, to, merchant.timeZone);
  if ('refused' in range) return refusal(request, range.refused, { from, to }, t(`refused.${range.refused}`));
  const header = Object.fromEntries(STATEMENT_COLUMNS.map((column) => [column, t(`columns.${column}`)])) as Record<StatementColumn, string>;
  const rowTypes = { order: t('rowTypes.order'), refund: t('rowTypes.refund') };
  const [standing, refundState] = await Promise.all([getTranslations('common.orderStanding'), getTranslations('portal.refunds.states')]);
  const statuses = {
    order: Object.fromEntries(ORDER_STANDINGS.map((name) => [name, standing(name)])),
    refund: Object.fromEntries(REFUND_STATES.map((name) => [name, refundState(name)])),
  };
  // The one-export-per-merchant lock is the primary's; the pages are read where the back office reads (the replica).
  const started = await startStatementExport(
    getDb(),
    { merchantId: merchant.merchantId, timeZone: merchant.timeZone, ...range, header, rowTypes, statuses, includeTest: params.get('test') === 'include' },
    await backOfficeDb(),
  );
  if (!started.started) {
    return new Response(t(`busy.${started.reason}`), { status: 429, headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '30', 'cache-control': 'no-store' } });
  }
  const rows = started.chunks;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await rows.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="statement-${merchant.appId}-${from}-${to}.csv"`,
      'cache-control': 'no-store',
    },
  });
}
