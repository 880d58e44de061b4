import type { AppProps } from 'next/app';
import '../app/globals.css';

/** The Pages Router serves only the payer's checkout (pages/pay/[token].tsx), with the same stylesheet as the rest. */
export default function CheckoutApp({ Component, pageProps }: AppProps) {
  return <Component {...pageProps} />;
}
