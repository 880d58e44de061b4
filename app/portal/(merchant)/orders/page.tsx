import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { button, control, fieldLabel, fieldWrap, link, note, pageTitle, table, tableWrap, td, th } from '@/components/portal/styles';
import { backOfficeDb } from '@/app/_back-office/back-office-db';
import { listMerchantOrders } from '@/lib/portal/list-merchant-orders';
import { failingDestinations } from '@/lib/notifications/failing-destinations';
import { FailingDestinationsNotice } from '@/components/portal/failing-destinations-notice';
import { parseOrderFilters, PORTAL_CHANNELS, PORTAL_ORDER_STATUSES, PORTAL_TEST_FILTERS, type OrderFilters } from '@/lib/portal/order-filters';
import { requireMerchant } from '../../_session/require-merchant';
import { LocalTime } from '@/components/i18n/local-time';
import { Amount } from '@/components/i18n/amount';
import { TestOrderBadge } from '@/components/back-office/test-order-badge';
import { FilterSelect } from '@/components/portal/filter-select';
import { ChannelName, channelNameIn } from '@/components/i18n/channel-name';
import { OrderStandingBadge } from '@/components/back-office/order-standing-badge';
import { roleMay } from '@/lib/accounts/team-roles';
import { StatementForm, statementFormState } from '@/components/portal/statement-form';

/** The list with the same filters, at the page above (`after`) or below (`before`) a row. */
function pageHref(filters: OrderFilters, cursor: { before?: string; after?: string }): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, before: undefined, after: undefined, ...cursor })) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  return `/portal/orders?${params.toString()}`;
}

export default async function OrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await requireMerchant('viewOrders');
  const db = await backOfficeDb(); // the replica unless this person just wrote or it lags
  const params = await searchParams;
  const filters = parseOrderFilters(params);
  const filtering = [filters.q, filters.channel, filters.status, filters.from, filters.to, filters.test].some((value) => value !== undefined);
  const statementState = statementFormState(params);
  const [result, failing] = await Promise.all([listMerchantOrders(db, merchant, filters), failingDestinations(db, new Date(), { merchantId: merchant.merchantId })]);
  const [t, common, status] = await Promise.all([getTranslations('portal.orders'), getTranslations('common'), getTranslations('portal.status')]);
  const channelName = channelNameIn(common);
  const mayExport = roleMay(merchant.teamRole, 'statements');
  const statusLabel = (value: string) => ((PORTAL_ORDER_STATUSES as readonly string[]).includes(value) ? status(value as (typeof PORTAL_ORDER_STATUSES)[number]) : value);
  return (
    <>
      <h1 className={pageTitle}>{t('title')}</h1>
      <FailingDestinationsNotice destinations={failing} />
      {/* On a phone both forms fold behind a link each (shown by :target, no script), so the first order is on the first
          screen; a filter in use or a statement refusal keeps its form open. */}
      <p className="mb-3 flex flex-wrap gap-x-4 gap-y-1 sm:hidden" data-testid="phone-form-links">
        <a className={link} href="#filters">{t('filterLabel')}</a>
        {mayExport ? <a className={link} href="#statement">{t('statementLabel')}</a> : null}
      </p>
      <form
        id="filters"
        className={`mb-4 grid-cols-1 gap-x-4 rounded-xl border border-gray-200 bg-white p-4 pb-0 target:grid sm:grid sm:grid-cols-2 sm:p-5 sm:pb-1 lg:grid-cols-4 xl:grid-cols-7 xl:items-end ${filtering ? 'grid' : 'hidden'}`}
        method="get"
        role="search"
        aria-label={t('filterLabel')}
      >
        <div className={fieldWrap}>
          <label htmlFor="filter-q" className={fieldLabel}>{t('orderNumber')}</label>
          <input id="filter-q" className={`${control} h-10`} name="q" defaultValue={filters.q ?? ''} placeholder={t('orderNumberPlaceholder')} />
        </div>
        <FilterSelect id="filter-channel" name="channel" label={t('channel')} value={filters.channel} options={[{ value: '', label: common('all') }, ...PORTAL_CHANNELS.map((channel) => ({ value: channel, label: channelName(channel) }))]} />
        <FilterSelect id="filter-status" name="status" label={t('status')} value={filters.status} options={[{ value: '', label: common('all') }, ...PORTAL_ORDER_STATUSES.map((value) => ({ value, label: statusLabel(value) }))]} />
        <FilterSelect
          id="filter-test"
          name="test"
          label={t('testFilter')}
          value={filters.test}
          options={[{ value: '', label: t('testHidden') }, ...PORTAL_TEST_FILTERS.map((value) => ({ value, label: t(value === 'include' ? 'testInclude' : 'testOnly') }))]}
        />
        <div className={fieldWrap}>
          <label htmlFor="filter-from" className={fieldLabel}>{t('from')}</label>
          <input id="filter-from" className={`${control} h-10`} name="from" type="date" defaultValue={filters.from ?? ''} aria-describedby="filter-dates-zone" />
        </div>
        <div className={fieldWrap}>
          <label htmlFor="filter-to" className={fieldLabel}>{t('to')}</label>
          <input id="filter-to" className={`${control} h-10`} name="to" type="date" defaultValue={filters.to ?? ''} aria-describedby="filter-dates-zone" />
        </div>
        <div className={`${fieldWrap} items-start justify-end`}>
          <button className={button()} type="submit">
            {common('filter')}
          </button>
        </div>
        <p id="filter-dates-zone" className={`${note} col-span-full mb-4`} data-testid="orders-date-zone">
          {t.rich('datesIn', { zone: merchant.timeZone, account: (chunks) => <Link className={link} href="/portal/account">{chunks}</Link> })}
        </p>
      </form>
      {mayExport ? <StatementForm timeZone={merchant.timeZone} defaults={filters} state={statementState} includeTest={filters.test !== undefined} foldOnPhone={!statementState.refused} /> : null}
      <p className={`${note} mb-2`} role="status" data-testid="orders-total">
        {t('onPage', { count: result.rows.length })}
        {filters.test ? null : (
          <span className="block">
            {t('testHiddenNote')} <Link className={link} href={pageHref({ ...filters, test: 'include' }, {})} data-testid="show-test-orders">{t('showTest')}</Link>
          </span>
        )}
      </p>
      {result.rows.length === 0 ? (
        <p className="my-3">{t('none')}</p>
      ) : (
        <div className={tableWrap}>
          <table className={table}>
            <thead>
              <tr>
                <th scope="col" className={th}>{t('merchantOrderNo')}</th>
                <th scope="col" className={`${th} hidden xl:table-cell`}>{t('orderNo')}</th>
                <th scope="col" className={`${th} hidden sm:table-cell`}>{t('channel')}</th>
                <th scope="col" className={th}>{t('amount')}</th>
                <th scope="col" className={th}>{t('status')}</th>
                <th scope="col" className={`${th} hidden md:table-cell`}>{t('created')}</th>
                <th scope="col" className={`${th} hidden lg:table-cell`}>{t('paid')}</th>
              </tr>
            </thead>
            <tbody>
              {result.rows.map((order) => (
                <tr key={order.orderNo}>
                  {/* The merchant's number wraps on a phone, so the amount and the status stay in view. */}
                  <td className={`${td} max-sm:break-all max-sm:whitespace-normal`}>
                    <Link className={link} href={`/portal/orders/${encodeURIComponent(order.orderNo)}`}>{order.merchantOrderNo}</Link>
                    {order.isTest ? <TestOrderBadge orderNo={order.orderNo} /> : null}
                    {/* On narrow screens the hidden columns' values follow the order number. */}
                    <div className="mt-0.5 text-xs text-gray-600 md:hidden" data-testid="order-row-details">
                      <span className="sm:hidden"><ChannelName channel={order.channel} /> · </span>
                      <LocalTime value={order.createdAt} />
                    </div>
                  </td>
                  <td className={`${td} hidden font-mono xl:table-cell`}>{order.orderNo}</td>
                  <td className={`${td} hidden sm:table-cell`}><ChannelName channel={order.channel} /></td>
                  <td className={td}>
                    <Amount value={order.amount} currency={order.currency} />
                  </td>
                  <td className={td}>
                    <OrderStandingBadge standing={order.standing} status={order.status} orderNo={order.orderNo} />
                  </td>
                  <td className={`${td} hidden md:table-cell`}><LocalTime value={order.createdAt} /></td>
                  <td className={`${td} hidden lg:table-cell`}><LocalTime value={order.paidAt} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="mt-3 flex flex-wrap items-center gap-4" aria-label={common('pager.label')}>
        {filters.before || filters.after ? <Link className={link} href={pageHref(filters, {})}>{common('pager.newest')}</Link> : null}
        {result.newer ? <Link className={link} href={pageHref(filters, { after: result.newer })} rel="prev">{common('pager.newer')}</Link> : null}
        {result.older ? <Link className={link} href={pageHref(filters, { before: result.older })} rel="next">{common('pager.older')}</Link> : null}
      </nav>
    </>
  );
}
