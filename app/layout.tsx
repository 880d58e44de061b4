import type { ReactNode } from 'react';
import './globals.css';

export const metadata = { title: 'Payment order service' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
