import type { ReactNode } from 'react';
import { getLocale } from 'next-intl/server';
import { SandboxProductionBanner } from '@/components/sandbox/sandbox-production-banner';
import './globals.css';

export const metadata = { title: 'Payment order service' };

export default async function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang={await getLocale()}>
      <body>
        <SandboxProductionBanner />
        {children}
      </body>
    </html>
  );
}
