import Link from 'next/link';
import { getTimeZone, getTranslations } from 'next-intl/server';
import { Amount } from '@/components/i18n/amount';
import { FailingDestinationsNotice } from '@/components/portal/failing-destinations-notice';
import { OrdersChart } from '@/components/portal/orders-chart';
import { card, details, detailsTerm, detailsValue, formError, link, mono, note, pageTitle, sectionTitle, table, tableWrap, td, th } from '@/components/portal/styles';
import { backOfficeDb } from '@/app/_back-office/back-office-db';
import { failingDestinations } from '@/lib/notifications/failing-destinations';
import { merchantDashboard } from '@/lib/portal/merchant-dashboard';
import { requireMerchant } from '../_session/require-merchant';
import { roleMay } from '@/lib/accounts/team-roles';

/** The overview's links to the pages a merchant uses most, each shown to the roles that may open it. */
const OVERVIEW_SHORTCUTS = [
  { key: 'orders', href: '/portal/orders', ability: 'viewOrders' },
  { key: 'keys', href: '/portal/keys', ability: 'keys' },
  { key: 'signature', href: '/portal/signature', ability: 'developerTools' },
] as const;

const stat = 'rounded-xl border border-gray-200 bg-white p-4';
const statValue = 'mt-1 mb-0 text-2xl font-bold';

export default async function PortalHome() {
  const merchant = await requireMerchant();
  const db = await backOfficeDb(); // the replica unless this person just wrote or it lags
  const [t, nav, timeZone] = await Promise.all([getTranslations('portal.overview'), getTranslations('portal.nav.links'), getTimeZone()]);
  const now = new Date();
  const shortcuts = OVERVIEW_SHORTCUTS.filter((shortcut) => roleMay(merchant.teamRole, shortcut.ability));
  const [dashboard, failing] = await Promise.all([
    merchantDashboard(db, merchant, now, timeZone),
    failingDestinations(db, now, { merchantId: merchant.merchantId }),
  ]);
  return (
    <>
      <h1 className={pageTitle}>{t('title')}</h1>
      <FailingDestinationsNotice destinations={failing} />
      {merchant.orderPermission ? null : (
        <p className={formError} role="note">
          {t('noPermission')}
        </p>
      )}
      <section aria-labelledby="figures-heading" className="mb-4">
        <h2 id="figures-heading" className={sectionTitle}>
          {t('figures', { zone: timeZone })}
        </h2>
        <p className={`${note} -mt-2 mb-2`} data-testid="dashboard-live-only">{t('liveOnly')}</p>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3 sm:gap-4" data-testid="dashboard-stats">
          <div className={stat}>
            <div className={note}>{t('today')}</div>
            <p className={statValue}>{dashboard.today.orders}</p>
            <div className={note}>{t('paidCount', { count: dashboard.today.paid })}</div>
          </div>
          <div className={stat}>
            <div className={note}>{t('week')}</div>
            <p className={statValue}>{dashboard.week.orders}</p>
            <div className={note}>{t('weekSplit', { paid: dashboard.week.paid, closed: dashboard.week.closed })}</div>
          </div>
          <div className={stat}>
            <div className={note}>{t('successRate')}</div>
            <p className={statValue}>{dashboard.successRate === undefined ? '—' : `${dashboard.successRate}%`}</p>
            <div className={note}>{t('successRateNote')}</div>
          </div>
        </div>
      </section>
      <section className={card} aria-labelledby="chart-heading">
        <h2 id="chart-heading" className={sectionTitle}>
          {t('chart')}
        </h2>
        <OrdersChart days={dashboard.days} timeZone={timeZone} />
      </section>
      <section aria-labelledby="totals-heading" className="mb-4">
        <h2 id="totals-heading" className={sectionTitle}>
          {t('totals')}
        </h2>
        {dashboard.paidTotals.length === 0 ? (
          <p className={note}>{t('noPaid')}</p>
        ) : (
          <div className={tableWrap}>
            <table className={table}>
              <thead>
                <tr>
                  <th scope="col" className={th}>
                    {t('channel')}
                  </th>
                  <th scope="col" className={th}>
                    {t('currency')}
                  </th>
                  <th scope="col" className={th}>
                    {t('todayCol')}
                  </th>
                  <th scope="col" className={th}>
                    {t('weekCol')}
                  </th>
                  <th scope="col" className={th}>
                    {t('paidOrders')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {dashboard.paidTotals.map((row) => (
                  <tr key={`${row.channel}-${row.currency}`}>
                    <td className={td}>{row.channel}</td>
                    <td className={td}>{row.currency}</td>
                    <td className={td}>
                      <Amount value={row.today} currency={row.currency} />
                    </td>
                    <td className={td}>
                      <Amount value={row.week} currency={row.currency} />
                    </td>
                    <td className={td}>{row.weekCount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className={card} aria-labelledby="merchant-heading">
        <h2 id="merchant-heading" className={sectionTitle}>
          {t('merchant')}
        </h2>
        <dl className={details}>
          <dt className={detailsTerm}>{t('name')}</dt>
          <dd className={detailsValue}>{merchant.merchantName}</dd>
          <dt className={detailsTerm}>AppID</dt>
          <dd className={`${detailsValue} ${mono}`}>{merchant.appId}</dd>
        </dl>
        <p className="mt-4 mb-0 flex flex-wrap gap-x-2 gap-y-1">
          {shortcuts.map((shortcut, index) => (
            <span key={shortcut.key} className="contents">
              {index > 0 ? <span aria-hidden="true">·</span> : null}
              <Link className={link} href={shortcut.href}>
                {nav(shortcut.key)}
              </Link>
            </span>
          ))}
        </p>
      </section>
    </>
  );
}
