import { channelNameIn } from '@/components/i18n/channel-name';
import type { ReactNode } from 'react';
import { getLocale, getTranslations } from 'next-intl/server';
import { CodeExamples } from '@/components/portal/code-examples';
import { ExampleProgramTabs } from '@/components/portal/example-program-tabs';
import { exampleSources } from '@/lib/examples/example-sources';
import { card, codeBlock, details, detailsTerm, detailsValue, link, mono, note, pageTitle, sectionTitle, subTitle, table, tableWrap, td, th } from '@/components/portal/styles';
import { OPENAPI_DOCUMENT_PATH } from '@/lib/api/openapi/document';
import { DOCUMENTED_ERRORS } from '@/lib/api/openapi/error-catalogue';
import { CHANNELS, credentialChannels, DEFAULT_CHANNEL } from '@/lib/channels';
import { isLocale } from '@/lib/i18n/locales';
import { buildApiExamples, buildRefundExamples, channelExamples, CLOSE_PATH, QUERY_PATH, SECRET_PLACEHOLDER, SUBMIT_PATH, type ChannelExample } from '@/lib/portal/api-examples';
import { REFUND_QUERY_PATH, REFUND_SUBMIT_PATH } from '@/lib/contract/open-api-paths';
import { publicBaseUrl } from '@/lib/orders/identifiers';
import { requireMerchant } from '../../_session/require-merchant';

const code = (chunks: ReactNode) => <code>{chunks}</code>;

/** The merchant's API reference: one language per page; every channel, its fields and examples come from the registry. */
export default async function ApiReferencePage() {
  const merchant = await requireMerchant('developerTools');
  const [t, requestLocale, common] = await Promise.all([getTranslations('portal.api'), getLocale(), getTranslations('common')]);
  /** A channel as the reader's language names it (支付宝 for ALIPAY); the payType values themselves stay in code. */
  const channelName = channelNameIn(common);
  const locale = isLocale(requestLocale) ? requestLocale : 'en';
  const list = (items: string[], type: Intl.ListFormatType = 'conjunction') => new Intl.ListFormat(locale, { type }).format(items);
  const baseUrl = publicBaseUrl();
  const examples = buildApiExamples({ appId: merchant.appId, baseUrl });
  const refundExamples = buildRefundExamples({ appId: merchant.appId, baseUrl });
  const programs = (await exampleSources({ appId: merchant.appId, baseUrl })).map(({ language, label, run, code }) => ({
    language,
    label,
    run,
    code,
    copyLabel: t('programs.copy', { language: label }),
  }));
  const byChannel = channelExamples(merchant.appId);
  /** A channel's examples are titled by its label ("USDT (TRC20, …)"), or by its name where the reader's language has one. */
  const exampleTitle = (example: ChannelExample) => (channelName(example.channel) === example.channel ? example.label : channelName(example.channel));
  const withOwnCredentials = list(credentialChannels().map((channel) => channelName(channel.name)));
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  const form = (value: Record<string, string>) => new URLSearchParams(value).toString().replace(/&/g, '\n&');
  /** One signed example per channel of the registry (placeholder secret), each under its channel's name. */
  const perChannel = (operation: 'submit' | 'query' | 'close' | 'notification', show: (example: ChannelExample) => string) =>
    byChannel.map((example) => (
      <div key={example.channel}>
        <h3 className={subTitle}>{exampleTitle(example)}</h3>
        <pre className={codeBlock} data-testid={`${operation}-body-${example.channel.toLowerCase()}`} tabIndex={0}>
          <code>{show(example)}</code>
        </pre>
      </div>
    ));
  const submitChoices = CHANNELS.flatMap((channel) => (channel.submitChoices?.(locale) ?? []).map((choices) => ({ channel: channel.name, ...choices })));
  return (
    <>
      <h1 className={pageTitle}>{t('title')}</h1>
      <section className={card} aria-labelledby="basics-heading">
        <h2 id="basics-heading" className={sectionTitle}>
          {t('basics.title')}
        </h2>
        <dl className={details}>
          <dt className={detailsTerm}>{t('basics.baseUrl')}</dt>
          <dd className={`${detailsValue} ${mono}`} data-testid="base-url">
            {baseUrl}
          </dd>
          <dt className={detailsTerm}>{t('basics.appId')}</dt>
          <dd className={`${detailsValue} ${mono}`} data-testid="api-app-id">
            {merchant.appId}
          </dd>
          <dt className={detailsTerm}>{t('basics.appSecret')}</dt>
          <dd className={detailsValue}>
            <code className={`${mono} rounded bg-amber-100 px-1`} data-testid="secret-placeholder">
              {SECRET_PLACEHOLDER}
            </code>{' '}
            {t.rich('basics.secretNote', { keys: (chunks) => <a className={link} href="/portal/keys">{chunks}</a> })}
          </dd>
          <dt className={detailsTerm}>{t('basics.openApi')}</dt>
          <dd className={detailsValue}>
            <a className={link} href={OPENAPI_DOCUMENT_PATH}>
              <code>{OPENAPI_DOCUMENT_PATH}</code>
            </a>
          </dd>
        </dl>
        <h3 className={subTitle}>{t('signature.title')}</h3>
        <ol className="mt-1 mb-2 list-decimal space-y-1 pl-5">
          <li>{t.rich('signature.step1', { code })}</li>
          <li>{t.rich('signature.step2', { code })}</li>
          <li>{t.rich('signature.step3', { code })}</li>
          <li>{t.rich('signature.step4', { code })}</li>
        </ol>
        <p className={note}>
          {t.rich('signature.envelope', {
            code,
            envelope: '{code, message, data}',
            debugger: (chunks) => <a className={link} href="/portal/signature">{chunks}</a>,
          })}
        </p>
      </section>

      <section className={card} aria-labelledby="programs-heading">
        <h2 id="programs-heading" className={sectionTitle}>
          {t('programs.title')}
        </h2>
        <p className={note}>{t.rich('programs.intro', { code })}</p>
        <ExampleProgramTabs programs={programs} labels={{ tabs: t('programs.tabs'), run: t('programs.run'), copied: t('examples.copied') }} />
      </section>

      <section className={card} aria-labelledby="submit-heading">
        <h2 id="submit-heading" className={sectionTitle}>
          {t('submit.title')} — <code>POST {SUBMIT_PATH}</code>
        </h2>
        <p className={note}>
          {t('submit.channels', { channels: list(byChannel.map((example) => exampleTitle(example))) })}{' '}
          {t.rich('submit.payAmount', { code })}{' '}
          {t.rich('submit.credentials', { channels: withOwnCredentials, credentials: (chunks) => <a className={link} href="/portal/credentials">{chunks}</a> })}
        </p>
        {submitChoices.map(({ channel, field, choices }) => (
          <div key={`${channel}-${field}`}>
            <h3 className={subTitle} id={`choices-${channel}-${field}`}>
              {t.rich('submit.choicesTitle', { code, field, channel: channelName(channel) })}
            </h3>
            {/* Focusable: on a narrow screen the table scrolls sideways, and a keyboard must be able to scroll it too. */}
            <div className={tableWrap} tabIndex={0} role="region" aria-labelledby={`choices-${channel}-${field}`}>
              <table className={table} data-testid={`submit-choices-${field}`}>
                <thead>
                  <tr>
                    <th className={th} scope="col">{t('submit.value')}</th>
                    <th className={th} scope="col">{t('submit.meaning')}</th>
                    <th className={th} scope="col">{t('submit.accepted')}</th>
                  </tr>
                </thead>
                <tbody>
                  {choices.map((choice) => (
                    <tr key={choice.value}>
                      <td className={td}>
                        <code>&quot;{choice.value}&quot;</code>
                      </td>
                      <td className={td}>
                        {choice.meaning}
                        {choice.isDefault ? ` ${t('submit.default')}` : ''}
                      </td>
                      <td className={td}>{choice.accepted ? t('submit.yes') : t('submit.notEnabled')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        ))}
        {perChannel('submit', (example) => json(example.submit))}
        <CodeExamples examples={examples.submit} />
      </section>

      <section className={card} aria-labelledby="query-heading">
        <h2 id="query-heading" className={sectionTitle}>
          {t('query.title')} — <code>POST {QUERY_PATH}</code>
        </h2>
        <p className={note}>
          {t.rich('query.intro', {
            code,
            defaultChannel: DEFAULT_CHANNEL,
            // The payType values, each quoted as code, joined the reader's way ("、" and "或").
            others: () =>
              new Intl.ListFormat(locale, { type: 'disjunction' })
                .formatToParts(CHANNELS.map((channel) => channel.name).filter((name) => name !== DEFAULT_CHANNEL))
                .map((part, index) => (part.type === 'element' ? <code key={index}>{part.value}</code> : part.value)),
          })}{' '}
          {t.rich('query.status', { code, channels: withOwnCredentials })}
        </p>
        {perChannel('query', (example) => json(example.query))}
        <CodeExamples examples={examples.query} />
      </section>

      <section className={card} aria-labelledby="close-heading">
        <h2 id="close-heading" className={sectionTitle}>
          {t('close.title')} — <code>POST {CLOSE_PATH}</code>
        </h2>
        <p className={note}>{t.rich('close.intro', { code })}</p>
        <p className={`${note} mt-2`}>{t.rich('close.refused', { code })}</p>
        {perChannel('close', (example) => json(example.query))}
        <CodeExamples examples={examples.close} />
      </section>

      <section className={card} aria-labelledby="refund-heading" data-testid="refund-reference">
        <h2 id="refund-heading" className={sectionTitle}>
          {t('refund.title')} — <code>POST {REFUND_SUBMIT_PATH}</code>
        </h2>
        <p className={note}>{t.rich('refund.intro', { code })}</p>
        <p className={`${note} mt-2`}>{t.rich('refund.states', { code })}</p>
        <p className={`${note} mt-2`}>{t.rich('refund.channels', { code })}</p>
        <CodeExamples examples={refundExamples.refund} />
        <h3 className={subTitle}>
          {t('refund.queryTitle')} — <code>POST {REFUND_QUERY_PATH}</code>
        </h3>
        <p className={note}>{t.rich('refund.notice', { code })}</p>
        <CodeExamples examples={refundExamples.refundQuery} />
      </section>

      <section className={card} aria-labelledby="notification-heading">
        <h2 id="notification-heading" className={sectionTitle}>
          {t('notification.title')}
        </h2>
        <p className={note}>{t.rich('notification.intro', { code })}</p>
        <p className={`${note} mt-2`}>{t('notification.ownFields')}</p>
        <ul className={`${note} mt-1 pl-5`}>
          {CHANNELS.map((channel) => (
            <li key={channel.name}>
              {channelName(channel.name)}:{' '}
              {Object.keys(channel.notificationFields({ orderNo: '', payAmountMinor: 0n })).map((field, index) => (
                <span key={field}>
                  {index > 0 ? ', ' : ''}
                  <code>{field}</code>
                </span>
              ))}
            </li>
          ))}
        </ul>
        <p className={`${note} mt-2`}>{t.rich('notification.closeNotices', { code })}</p>
        {perChannel('notification', (example) => form(example.notification))}
        <CodeExamples examples={examples.notification} />
      </section>

      <section className={card} aria-labelledby="errors-heading">
        <h2 id="errors-heading" className={sectionTitle}>
          {t('errors.title')}
        </h2>
        <p className={note}>{t.rich('errors.intro', { code })}</p>
        {/* Generated from the one error catalogue (lib/api/error-codes.ts), as the OpenAPI document is. Scrolls
            sideways on a phone, so it takes the keyboard focus too. */}
        <div className={tableWrap} role="region" aria-label={t('errors.tableLabel')} tabIndex={0}>
          <table className={table} data-testid="error-codes">
            <thead>
              <tr>
                <th scope="col" className={th}>{t('errors.code')}</th>
                <th scope="col" className={th}>{t('errors.http')}</th>
                <th scope="col" className={th}>{t('errors.message')}</th>
                <th scope="col" className={th}>{t('errors.when')}</th>
              </tr>
            </thead>
            <tbody>
              {DOCUMENTED_ERRORS.map((error, index) => (
                <tr key={`${error.code}-${index}`}>
                  <td className={`${td} ${mono}`}>{error.code}</td>
                  <td className={`${td} ${mono}`}>{error.httpStatus}</td>
                  <td className={td}>
                    <code>{error.message}</code>
                    {error.exact ? null : <span className={`${note} block`}>{t('errors.example')}</span>}
                  </td>
                  {/* The catalogue's own words: the contract is written in English. */}
                  <td className={td} lang="en">
                    {error.when}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
