import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { PageTitle } from '@/components/operator/ui';
import { backOfficeDb } from '@/app/_back-office/back-office-db';
import { failingDestinations } from '@/lib/notifications/failing-destinations';
import { operatorOverview } from '@/lib/operator/overview';
import { requireOperator } from './_session/require-operator';

export const dynamic = 'force-dynamic';

function Tile({ href, title, value, note, urgent, testId }: { href: string; title: string; value: number | string; note: string; urgent?: boolean; testId?: string }) {
  return (
    <li data-testid={testId}>
      <Link
        href={href}
        className={`block h-full rounded-xl border bg-white p-4 no-underline hover:shadow-sm focus-visible:outline-3 focus-visible:outline-teal-700 ${urgent ? 'border-amber-400' : 'border-gray-200'}`}
      >
        <span className="block text-sm font-semibold text-gray-900">{title}</span>
        <span className="mt-1 block text-3xl font-bold text-gray-900">{value}</span>
        <span className="mt-1 block text-xs text-gray-600">{note}</span>
      </Link>
    </li>
  );
}

export default async function OperatorIndexPage() {
  await requireOperator();
  const db = await backOfficeDb(); // the replica unless this person just wrote or it lags
  const [overview, failing, t] = await Promise.all([operatorOverview(db), failingDestinations(db, new Date()), getTranslations('console.overview')]);
  // Failing now: destinations whose last attempts went unanswered, long before their notifications run out of retries.
  const failingMerchants = new Set(failing.flatMap((destination) => destination.merchants)).size;
  const failingNotifications = failing.reduce((sum, destination) => sum + destination.pending, 0);
  const attention = overview.attention.transfers + overview.attention.callbacks + overview.attention.notifications;
  return (
    <>
      <PageTitle title={t('title')} intro={t('intro')} />
      <ul className="m-0 grid list-none grid-cols-1 gap-3 p-0 sm:grid-cols-2 lg:grid-cols-3" data-testid="overview">
        <Tile href="/operator/credentials" title={t('credentials')} value={overview.pendingCredentials} note={t('credentialsNote')} urgent={overview.pendingCredentials > 0} />
        <Tile
          href="/operator/attention"
          title={t('attention')}
          value={attention}
          note={t('attentionNote', { transfers: overview.attention.transfers, callbacks: overview.attention.callbacks, notifications: overview.attention.notifications })}
          urgent={attention > 0}
        />
        <Tile
          href="/operator/health#destinations-heading"
          title={t('failing')}
          value={failingNotifications}
          note={t('failingNote', { destinations: failing.length, merchants: failingMerchants })}
          urgent={failing.length > 0}
          testId="tile-failing-now"
        />
        <Tile href="/operator/merchants" title={t('merchants')} value={overview.merchants} note={t('merchantsNote')} />
        <Tile href="/operator/addresses" title={t('addresses')} value={overview.enabledAddresses} note={t('addressesNote')} />
        <Tile href="/operator/audit" title={t('audit')} value="→" note={t('auditNote')} />
        <Tile href="/operator/health" title={t('health')} value="→" note={t('healthNote')} />
      </ul>
    </>
  );
}
