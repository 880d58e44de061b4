import type { GetServerSideProps } from 'next';
import Head from 'next/head';
import { ChannelCheckoutPage, checkoutRedirect } from '@/components/checkout/checkout-pages';
import type { AsJson, CheckoutSearchParams } from '@/components/checkout/checkout-shell';
import { checkoutTranslator } from '@/components/checkout/checkout-translator';
import { CheckoutGone, CheckoutNotFound } from '@/components/checkout/checkout-unavailable';
import { SandboxProductionWarning, type SandboxWarningWords } from '@/components/sandbox/sandbox-production-warning';
import { loadCheckout, type LoadedCheckout } from '@/lib/checkout/load-checkout';
import { getDb } from '@/lib/db/client';
import { localeCookieHeader, LOCALE_COOKIE, normaliseLocale, pickLocale, type Locale } from '@/lib/i18n/locales';
import { loadMessages, type Messages } from '@/lib/i18n/messages';
import { sandboxMountedInProduction } from '@/lib/sandbox/sandbox-exposure';

/**
 * The payer's checkout at an order's payUrl. A Pages Router page with no runtime JavaScript: in production the HTML
 * carries the amount, the address and the QR code, and one small inline script (pages/_document.tsx) copies, counts
 * down, polls the status and hands over to the upstream or back to the shop. The App Router's runtime alone is more
 * than a payer's phone should load for this page (`npm run bench:checkout`).
 */
// `runtime` also gives the object a member Next.js' PagesPageConfig type declares (it leaves unstable_runtimeJS out).
export const config = { runtime: 'nodejs', unstable_runtimeJS: false };

/** Whether the payer reached the service over HTTPS (directly, or through the proxy that says so). */
function isHttps(req: { headers: Record<string, string | string[] | undefined>; socket: object }): boolean {
  return req.headers['x-forwarded-proto'] === 'https' || ('encrypted' in req.socket && req.socket.encrypted === true);
}

interface PayPageProps {
  locale: Locale;
  messages: Messages;
  token: string;
  query: Record<string, string>;
  /** The bar's words while the sandbox is mounted in production, else null. */
  sandboxWarning: SandboxWarningWords | null;
  checkout: AsJson<LoadedCheckout>;
}

export const getServerSideProps: GetServerSideProps<PayPageProps> = async ({ params, query, req, res }) => {
  const token = String(params?.token ?? '');
  const single: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) if (typeof value === 'string' && name !== 'token') single[name] = value;
  const locale = pickLocale({ explicit: single.lang, cookie: req.cookies[LOCALE_COOKIE], acceptLanguage: req.headers['accept-language'] });
  // A language chosen in the link (or with the language switch) is remembered: the payer who comes back from the
  // wallet or the upstream's cashier to the bare payUrl reads the page in the same language.
  if (normaliseLocale(single.lang) && req.cookies[LOCALE_COOKIE] !== locale) res.setHeader('Set-Cookie', localeCookieHeader(locale, isHttps(req)));
  // Through JSON, as page props must be: instants become ISO strings, undefined members are left out.
  const checkout = JSON.parse(JSON.stringify(await loadCheckout(getDb(), token))) as AsJson<LoadedCheckout>;
  if (checkout.kind === 'live') {
    const destination = checkoutRedirect(checkout, single);
    if (destination) return { redirect: { destination, permanent: false } };
  }
  if (checkout.kind === 'unknown') res.statusCode = 404;
  // An order closed long ago: nothing about it is worth showing any more, but the payer still gets the way back.
  if (checkout.kind === 'gone') res.statusCode = 410;
  const { checkout: messages, sandbox } = await loadMessages(locale, ['checkout', 'sandbox']);
  const sandboxWarning = sandboxMountedInProduction() ? ((sandbox as { productionBanner: SandboxWarningWords }).productionBanner) : null;
  return { props: { locale, messages: messages as Messages, token, query: single, sandboxWarning, checkout } };
};

export default function PayPage({ locale, messages, token, query, sandboxWarning, checkout }: PayPageProps) {
  const t = checkoutTranslator(locale, messages);
  const frame = checkout.kind === 'unknown' ? undefined : { locale, t, merchant: checkout.merchant, ending: checkout.kind === 'live' ? checkout.ending : null };
  return (
    <>
      <Head>
        <title>{t('pageTitle')}</title>
        <meta name="viewport" content="width=device-width, initial-scale=1" key="viewport" />
      </Head>
      {sandboxWarning ? <SandboxProductionWarning words={sandboxWarning} /> : null}
      {!frame ? (
        <CheckoutNotFound locale={locale} t={t} />
      ) : checkout.kind === 'gone' ? (
        <CheckoutGone frame={frame} redirectUrl={checkout.redirectUrl} />
      ) : checkout.kind === 'live' ? (
        <ChannelCheckoutPage frame={frame} token={token} checkout={checkout} searchParams={query as CheckoutSearchParams} />
      ) : null}
    </>
  );
}
