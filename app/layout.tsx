import type { ReactNode } from 'react';
import { getLocale, getTranslations } from 'next-intl/server';
import { SandboxProductionBanner } from '@/components/sandbox/sandbox-production-banner';
import './globals.css';

/** The title of a page that names none itself, in the reader's language. */
export async function generateMetadata() {
  const t = await getTranslations('common.home');
  return { title: t('title') };
}

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
