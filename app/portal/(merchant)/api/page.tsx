import { CodeExamples } from '@/components/portal/code-examples';
import { card, codeBlock, details, detailsTerm, detailsValue, link, mono, note, pageTitle, sectionTitle, subTitle } from '@/components/portal/styles';
import { OPENAPI_DOCUMENT_PATH } from '@/lib/api/openapi/document';
import { buildApiExamples, channelExamples, SECRET_PLACEHOLDER, type ChannelExample } from '@/lib/portal/api-examples';
import { publicBaseUrl } from '@/lib/orders/identifiers';
import { requireMerchant } from '../../_session/require-merchant';

export default async function ApiReferencePage() {
  const merchant = await requireMerchant();
  const baseUrl = publicBaseUrl();
  const examples = buildApiExamples({ appId: merchant.appId, baseUrl });
  const byChannel = channelExamples(merchant.appId);
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  const form = (value: Record<string, string>) => new URLSearchParams(value).toString().replace(/&/g, '\n&');
  /** One signed example per channel of the registry (placeholder secret), each under its channel's name. */
  const perChannel = (operation: 'submit' | 'query' | 'notification', show: (example: ChannelExample) => string) =>
    byChannel.map((example) => (
      <div key={example.channel}>
        <h3 className={subTitle}>{example.label}</h3>
        <pre className={codeBlock} data-testid={`${operation}-body-${example.channel.toLowerCase()}`} tabIndex={0}>
          <code>{show(example)}</code>
        </pre>
      </div>
    ));
  return (
    <>
      <h1 className={pageTitle}>API reference · 接口文档</h1>
      <section className={card} aria-labelledby="basics-heading">
        <h2 id="basics-heading" className={sectionTitle}>Basics · 基本信息</h2>
        <dl className={details}>
          <dt className={detailsTerm}>Base URL</dt>
          <dd className={`${detailsValue} ${mono}`} data-testid="base-url">
            {baseUrl}
          </dd>
          <dt className={detailsTerm}>Your AppID</dt>
          <dd className={`${detailsValue} ${mono}`} data-testid="api-app-id">
            {merchant.appId}
          </dd>
          <dt className={detailsTerm}>AppSecret</dt>
          <dd className={detailsValue}>
            <span className={`${mono} rounded bg-amber-100 px-1`} data-testid="secret-placeholder">
              {SECRET_PLACEHOLDER}
            </span>{' '}
            — a placeholder in every example below: put your AppSecret in its place (see{' '}
            <a className={link} href="/portal/keys">Interface keys</a>), on your server only. / 示例中的密钥为占位符，请替换为您的 AppSecret，切勿泄露。
          </dd>
          <dt className={detailsTerm}>OpenAPI 3.1</dt>
          <dd className={detailsValue}>
            <a className={link} href={OPENAPI_DOCUMENT_PATH}>{OPENAPI_DOCUMENT_PATH}</a>
          </dd>
        </dl>
        <h3 className={subTitle}>Signature · 签名</h3>
        <ol className="mt-1 mb-2 list-decimal space-y-1 pl-5">
          <li>Take every submitted field; drop <code>signature</code> and every empty field (&quot;&quot;, null, absent).</li>
          <li>Sort the names in ASCII order, case-sensitive (<code>payType</code> comes before <code>pay_usdt</code>).</li>
          <li>
            Join them as <code>name=value</code> with <code>&amp;</code>, raw values (no URL encoding), then append <code>&amp;appsecret=</code> and the
            AppSecret.
          </li>
          <li>MD5 of the UTF-8 bytes, uppercase hex: that is <code>signature</code>.</li>
        </ol>
        <p className={note}>
          Every request is a JSON POST answered with <code>{'{code, message, data}'}</code>; code 0 is success. A 1002 answer means the signature differs: the{' '}
          <a className={link} href="/portal/signature">signature debugger</a> shows why.
        </p>
      </section>

      <section className={card} aria-labelledby="submit-heading">
        <h2 id="submit-heading" className={sectionTitle}>Create an order · 下单 — POST /v1/api/open/order/submit</h2>
        <p className={note}>
          {byChannel.map((example) => example.label).join(', ')} are available. The reply&apos;s <code>pay_usdt</code> is what the payer must pay (it can be 0.01 above the
          request). ALIPAY and WECHAT orders need one of your credentials for that channel, approved and enabled (<a className={link} href="/portal/credentials">credentials</a>).
        </p>
        {perChannel('submit', (example) => json(example.submit))}
        <CodeExamples examples={examples.submit} />
      </section>

      <section className={card} aria-labelledby="query-heading">
        <h2 id="query-heading" className={sectionTitle}>Query an order · 查询 — POST /v1/api/open/order/query</h2>
        <p className={note}>
          By your <code>merchantOrderNo</code>. Without <code>payType</code> it reads a USDT order; <code>payType</code> <code>YHT</code>,{' '}
          <code>ALIPAY</code> or <code>WECHAT</code> reads an order of that channel. Status <code>&apos;0&apos;</code> pending, <code>&apos;1&apos;</code> paid,{' '}
          <code>&apos;2&apos;</code> expired or closed (ALIPAY and WECHAT: the integers 1, 2, 3).
        </p>
        {perChannel('query', (example) => json(example.query))}
        <CodeExamples examples={examples.query} />
      </section>

      <section className={card} aria-labelledby="notification-heading">
        <h2 id="notification-heading" className={sectionTitle}>Payment notification · 支付通知</h2>
        <p className={note}>
          When an order is paid the service POSTs a form (<code>application/x-www-form-urlencoded</code>) to its <code>notifyUrl</code>, signed the same way.
          Verify the signature, credit once per <code>merchantOrderNo</code>, and answer HTTP 200 with <code>success</code>; otherwise it is sent again (10
          attempts over about 25 hours). USDT sends <code>orderNo</code> and <code>pay_usdt</code>; YHT <code>orderNo</code> and <code>payMoney</code>.
        </p>
        {perChannel('notification', (example) => form(example.notification))}
        <CodeExamples examples={examples.notification} />
      </section>
    </>
  );
}
