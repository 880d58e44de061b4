import type { ReactNode } from 'react';
import './portal.css';

export const metadata = { title: 'Merchant back office · 商户后台' };

export default function PortalLayout({ children }: { children: ReactNode }) {
  return (
    <div className="portal" lang="en">
      <a className="skip-link" href="#main">
        Skip to content / 跳到正文
      </a>
      {children}
    </div>
  );
}
