'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { signOut } from 'next-auth/react';
import { useState } from 'react';

const LINKS = [
  { href: '/portal', label: 'Overview · 概览' },
  { href: '/portal/orders', label: 'Orders · 订单' },
  { href: '/portal/keys', label: 'Interface keys · 接口密钥' },
  { href: '/portal/credentials', label: 'Credentials · 上游凭证' },
  { href: '/portal/signature', label: 'Signature debugger · 签名调试' },
  { href: '/portal/api', label: 'API reference · 接口文档' },
  { href: '/portal/account', label: 'Account · 账户' },
];

export function PortalNav({ merchantName, email }: { merchantName: string; email: string }) {
  const pathname = usePathname();
  const [pending, setPending] = useState(false);
  return (
    <nav className="portal-nav" aria-label="Back office · 后台">
      <strong>{merchantName}</strong>
      {LINKS.map((link) => {
        const current = link.href === '/portal' ? pathname === '/portal' : pathname.startsWith(link.href);
        return (
          <Link key={link.href} href={link.href} aria-current={current ? 'page' : undefined}>
            {link.label}
          </Link>
        );
      })}
      <span className="spacer" />
      <span className="who">{email}</span>
      <button
        type="button"
        className="button secondary"
        disabled={pending}
        onClick={async () => {
          setPending(true);
          await signOut({ redirect: false });
          // A full load, so that no signed-in page stays in the client router's cache.
          // eslint-disable-next-line @next/next/no-location-assign-relative-destination
          window.location.assign('/portal/sign-in');
        }}
      >
        Sign out · 退出
      </button>
    </nav>
  );
}
