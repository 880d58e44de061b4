import type { ReactNode } from 'react';
import { SandboxProductionBanner } from '@/components/sandbox/sandbox-production-banner';
import './globals.css';

export const metadata = { title: 'Payment order service' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <SandboxProductionBanner />
        {children}
      </body>
    </html>
  );
}
